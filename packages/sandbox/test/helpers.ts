import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import type { Sandbox } from '../src/index';
import type { CheckoutSessionBody } from '../src/rules/checkout-session';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: { code: string; msg?: string; traceId: string; data: Record<string, unknown> };
}

/** The four authentication headers done right, for `sandbox`, at its clock's time. */
export function goodHeaders(sandbox: Sandbox): Record<string, string> {
  return {
    authorization: `Bearer ${sandbox.testApiKey}`,
    'content-type': 'application/json',
    'x-client-request-id': randomUUID(),
    'x-timestamp': String(sandbox.clock.now()),
  };
}

/** `goodHeaders` with `overrides` applied one by one (`undefined` drops one). */
function mergedHeaders(sandbox: Sandbox, overrides: Record<string, string | undefined>, base = goodHeaders(sandbox)): Record<string, string> {
  return Object.fromEntries(
    Object.entries({ ...base, ...overrides }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

async function send(sandbox: Sandbox, path: string, init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string }) {
  const res = await request(`${sandbox.url}${path}`, init);
  const text = await res.body.text();
  let json: RawAnswer['json'];
  try {
    json = JSON.parse(text) as RawAnswer['json'];
  } catch {
    json = { code: '(not json)', traceId: '', data: {} };
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** A raw POST with undici, headers overridable one by one (`undefined` drops one). */
export function post(
  sandbox: Sandbox,
  path: string,
  body: unknown,
  headers: Record<string, string | undefined> = {},
): Promise<RawAnswer> {
  return send(sandbox, path, {
    method: 'POST',
    headers: mergedHeaders(sandbox, headers),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A raw GET with the authentication headers and no Content-Type (as the vendor's SDK sends it), `query` in the URL. */
export function get(
  sandbox: Sandbox,
  path: string,
  query: Record<string, string>,
  headers: Record<string, string | undefined> = {},
): Promise<RawAnswer> {
  const { 'content-type': _json, ...auth } = goodHeaders(sandbox);
  return send(sandbox, `${path}?${new URLSearchParams(query).toString()}`, { method: 'GET', headers: mergedHeaders(sandbox, headers, auth) });
}

let counter = 0;
/** A unique id valid as transactionRequestId and referenceOrderId. */
export function uniqueId(prefix = 'id'): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}_${counter}`;
}

/** A create-session body as the rules pass it on, for a session store used without a server. */
export function checkedSessionBody(transactionRequestId: string): CheckoutSessionBody {
  return {
    appId: 'app',
    merchantId: 'mch',
    transactionRequestId,
    referenceOrderId: 'order-1',
    amount: { orderAmount: 100, priceCurrency: 'USD' },
    description: 'order',
  };
}

export function sessionBody(sandbox: Sandbox, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    appId: sandbox.appId,
    merchantId: sandbox.merchantId,
    transactionRequestId: uniqueId('tr'),
    referenceOrderId: uniqueId('order'),
    amount: { orderAmount: 2500, taxAmount: 200, surchargeAmount: 0, priceCurrency: 'USD' },
    description: 'Two mugs',
    productList: [{ name: 'Mug', amount: 1250, num: 2 }],
    ...overrides,
  };
}

export function saleBody(sandbox: Sandbox, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    appId: sandbox.appId,
    merchantId: sandbox.merchantId,
    transactionRequestId: uniqueId('tr'),
    referenceOrderId: uniqueId('order'),
    description: 'Two mugs',
    amount: { orderAmount: 2500, priceCurrency: 'USD' },
    paymentMethod: 'WALLET_PAY',
    cardEncryptedData: sandbox.mintWalletToken(),
    ...overrides,
  };
}

export interface ReceivedWebhook {
  headers: IncomingMessage['headers'];
  rawBody: string;
}

/**
 * A real webhook receiver on 127.0.0.1: records every request and answers with
 * the next status of `statuses` (then 200), or never answers while `hang` is set.
 */
export async function startReceiver(options: { statuses?: number[]; hang?: boolean } = {}) {
  const received: ReceivedWebhook[] = [];
  const statuses = [...(options.statuses ?? [])];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') });
      if (options.hang) return;
      res.writeHead(statuses.shift() ?? 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
