import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { CREATE_SESSION_PATH, CREDENTIALS, sessionFieldsOf, type ShopOrder } from '../../fixtures/shop';

export interface HandWrittenSession {
  checkoutUrl: string;
  expiresAt: string;
}

interface Envelope {
  code?: string;
  msg?: string;
  data?: Partial<HandWrittenSession>;
}

/** The body and headers every hand-written create-session call sends: the spec's four headers, fresh ids. */
export function handWrittenCall(order: ShopOrder): { headers: Record<string, string>; body: string } {
  return {
    headers: {
      authorization: `Bearer ${CREDENTIALS.apiKey}`,
      'content-type': 'application/json',
      'x-client-request-id': randomUUID(),
      'x-timestamp': String(Date.now()),
    },
    body: JSON.stringify({
      appId: CREDENTIALS.appId,
      merchantId: CREDENTIALS.merchantId,
      transactionRequestId: randomUUID().replaceAll('-', ''),
      ...sessionFieldsOf(order),
    }),
  };
}

/** What the envelope check comes down to when nobody validates anything. */
export function sessionOf(envelope: Envelope): HandWrittenSession {
  if (envelope.code !== '0' || typeof envelope.data?.checkoutUrl !== 'string' || typeof envelope.data.expiresAt !== 'string') {
    throw new Error(`create-session failed: ${envelope.code} ${envelope.msg ?? ''}`);
  }
  return { checkoutUrl: envelope.data.checkoutUrl, expiresAt: envelope.data.expiresAt };
}

/** The bare minimum on undici: one request, parse the envelope, take the two fields. */
export async function createSessionOnUndici(dispatcher: Dispatcher, origin: string, order: ShopOrder): Promise<HandWrittenSession> {
  const { headers, body } = handWrittenCall(order);
  const response = await dispatcher.request({ origin, path: CREATE_SESSION_PATH, method: 'POST', headers, body });
  return sessionOf((await response.body.json()) as Envelope);
}

/**
 * The bare minimum on the runtime's fetch: one request, parse the envelope, take the two fields.
 * With `signal`, the call can be abandoned (a time limit): what any caller that does not wait forever passes.
 */
export async function createSessionOnFetch(origin: string, order: ShopOrder, signal?: AbortSignal): Promise<HandWrittenSession> {
  const { headers, body } = handWrittenCall(order);
  const response = await fetch(origin + CREATE_SESSION_PATH, signal === undefined ? { method: 'POST', headers, body } : { method: 'POST', headers, body, signal });
  return sessionOf((await response.json()) as Envelope);
}

/**
 * The cheapest time limit a caller can put on fetch: an AbortController aborted by a timer,
 * the timer cleared once the answer is read. What any fetch that does not wait forever pays.
 */
export async function createSessionOnTimedFetch(origin: string, order: ShopOrder, timeoutMs: number): Promise<HandWrittenSession> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return await createSessionOnFetch(origin, order, controller.signal);
  } finally {
    clearTimeout(timer);
  }
}
