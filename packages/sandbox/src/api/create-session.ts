import type { Environment } from '../credentials';
import { isoTime } from '../iso-time';
import type { CheckoutSessionBody } from '../rules/checkout-session';
import type { SandboxState } from '../state';

export function hostedCheckoutUrl(state: SandboxState, sessionId: string): string {
  return `${state.url}/hosted/checkout/${sessionId}`;
}

/** The session a create-session result names (a transaction query by transactionRequestId finds the session through it). */
export function sessionIdOfResult(data: Record<string, unknown>): string | undefined {
  const { sessionId } = data;
  return typeof sessionId === 'string' ? sessionId : undefined;
}

/**
 * The answer to a create-session call, rebuilt from what the ledger keeps of
 * its first result: the session's id and expiry. Keeping those rather than the
 * answer's text (its URL above all) makes each of the 100,000 remembered
 * results a third smaller, which the garbage collector copies and the cache
 * holds less of.
 */
function sessionAnswer(state: SandboxState, result: Record<string, unknown>): Record<string, unknown> {
  const sessionId = sessionIdOfResult(result);
  const { expiresAt } = result;
  if (sessionId === undefined || typeof expiresAt !== 'number') throw new TypeError('a create-session result keeps its sessionId and expiresAt');
  return { checkoutUrl: hostedCheckoutUrl(state, sessionId), expiresAt: isoTime(expiresAt), sessionId };
}

/** POST /v1/checkout/create-session: a session usable for 30 minutes; a repeated transactionRequestId gets the first session. */
export function createSession(state: SandboxState, environment: Environment, body: CheckoutSessionBody): Record<string, unknown> {
  const first = state.ledger.recall(environment, body.transactionRequestId, 'create-session');
  if (first) return sessionAnswer(state, first);
  const { sessionId, expiresAt } = state.sessions.create(body, environment, state.clock.now());
  const result = { sessionId, expiresAt };
  state.ledger.remember(environment, body.transactionRequestId, 'create-session', result);
  return sessionAnswer(state, result);
}
