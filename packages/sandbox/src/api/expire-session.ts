import type { Environment } from '../credentials';
import { SandboxRefusal } from '../envelope';
import type { ExpireSessionBody } from '../rules/expire-session';
import type { SandboxState } from '../state';
import { isoTime } from '../iso-time';

/**
 * POST /v1/checkout/expire-session: an open session expires at once (its `C`
 * webhook goes out). A session already closed unpaid, or whose payment
 * failed, is answered as it is, without a second webhook; a paid one is
 * refused (H02).
 */
export function expireSession(state: SandboxState, environment: Environment, body: ExpireSessionBody): Record<string, unknown> {
  const now = state.clock.now();
  const session = state.sessions.get(body.sessionId, now);
  if (!session || session.environment !== environment) throw new SandboxRefusal('H01', 'no checkout session with this sessionId');
  if (session.state === 'paid') throw new SandboxRefusal('H02', 'the checkout session is already paid: refund the payment instead');
  state.sessions.close(session, 'expired', now, { code: 'SESSION_EXPIRED', message: body.reason ?? 'checkout session expired by the merchant' });
  return {
    sessionId: session.sessionId,
    sessionStatus: 'EXPIRED',
    transactionId: session.transactionId,
    transactionRequestId: session.request.transactionRequestId,
    expiredAt: isoTime(session.closedAt ?? now),
  };
}
