import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { CREDENTIALS, REFUND_AMOUNT, REFUND_PATH, SETTLED_PAYMENT_ID, TRANSACTION_QUERY_PATH } from '../../fixtures/shop';

interface Envelope {
  code?: string;
  msg?: string;
  data?: { transactionId?: unknown; transactionStatus?: unknown };
}

/** The spec's headers of one attempt; a GET goes without Content-Type, as the vendor's SDK sends it. */
function headersOf(method: 'GET' | 'POST'): Record<string, string> {
  return {
    authorization: `Bearer ${CREDENTIALS.apiKey}`,
    ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    'x-client-request-id': randomUUID(),
    'x-timestamp': String(Date.now()),
  };
}

/** What the envelope check comes down to when nobody validates anything: the transaction's status. */
function statusOf(envelope: Envelope, what: string): string {
  if (envelope.code !== '0' || typeof envelope.data?.transactionId !== 'string' || typeof envelope.data.transactionStatus !== 'string') {
    throw new Error(`${what} failed: ${envelope.code} ${envelope.msg ?? ''}`);
  }
  return envelope.data.transactionStatus;
}

/** A partial refund of the settled payment on bare undici: one request, parse the envelope. */
export async function refundOnUndici(dispatcher: Dispatcher, origin: string): Promise<string> {
  const body = JSON.stringify({
    appId: CREDENTIALS.appId,
    merchantId: CREDENTIALS.merchantId,
    transactionRequestId: randomUUID().replaceAll('-', ''),
    originalTransactionId: SETTLED_PAYMENT_ID,
    amount: REFUND_AMOUNT,
  });
  const response = await dispatcher.request({ origin, path: REFUND_PATH, method: 'POST', headers: headersOf('POST'), body });
  return statusOf((await response.body.json()) as Envelope, 'refund');
}

/** The settled payment looked up on bare undici: a GET with the ids in its query string. */
export async function queryOnUndici(dispatcher: Dispatcher, origin: string): Promise<string> {
  const query = new URLSearchParams({ appId: CREDENTIALS.appId, merchantId: CREDENTIALS.merchantId, transactionId: SETTLED_PAYMENT_ID });
  const response = await dispatcher.request({ origin, path: `${TRANSACTION_QUERY_PATH}?${query.toString()}`, method: 'GET', headers: headersOf('GET') });
  return statusOf((await response.body.json()) as Envelope, 'transaction query');
}
