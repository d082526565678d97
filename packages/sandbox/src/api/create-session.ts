import type { Environment } from '../credentials';
import type { CheckoutSessionBody } from '../rules/checkout-session';
import type { SandboxState } from '../state';
import { isoTime } from '../iso-time';

export function hostedCheckoutUrl(state: SandboxState, sessionId: string): string {
  return `${state.url}/hosted/checkout/${sessionId}`;
}

/** The session a create-session result names (a transaction query by transactionRequestId finds the session through it). */
export function sessionIdOfResult(data: Record<string, unknown>): string | undefined {
  const { sessionId } = data;
  return typeof sessionId === 'string' ? sessionId : undefined;
}

/** POST /v1/checkout/create-session: a session usable for 30 minutes; a repeated transactionRequestId gets the first session. */
export function createSession(state: SandboxState, environment: Environment, body: CheckoutSessionBody): Record<string, unknown> {
  const first = state.ledger.recall(environment, body.transactionRequestId, 'create-session');
  if (first) return first;
  const session = state.sessions.create(body, environment, state.clock.now());
  const data = {
    checkoutUrl: hostedCheckoutUrl(state, session.sessionId),
    expiresAt: isoTime(session.expiresAt),
    sessionId: session.sessionId,
  };
  state.ledger.remember(environment, body.transactionRequestId, 'create-session', data);
  return data;
}
