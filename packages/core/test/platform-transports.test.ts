import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AttemptTimeoutError,
  createFetchTransport,
  createPaymentClient,
  MAX_RESPONSE_BYTES,
  PaymentResponseError,
  PaymentValidationError,
  type FetchFunction,
  type Transport,
} from '../src';
import { createUndiciTransport } from '../src/entries/internal';
import type { TransportOptions } from '../src/entries/internal';
import { directPaymentInput } from './support/fixtures';

/*
 * The two platforms' transports, case by case, over real HTTP: each must give
 * the client the same answers, limits and failures, so that call.ts's retries
 * and deadline work alike on every runtime.
 */
const TRANSPORTS: ReadonlyArray<readonly [string, (options: TransportOptions) => Transport]> = [
  ['undici (Node)', createUndiciTransport],
  ['fetch (web)', createFetchTransport],
];

let sandbox: Sandbox;
const closing: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterEach(async () => {
  await Promise.all(closing.splice(0).map((item) => item.close()));
});
afterAll(async () => {
  await sandbox?.close();
});

/** A server answering every request with `answer`. */
async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => req.resume().on('end', () => answer(req, res)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const OVERSIZE = `{"code":"0","pad":"${'x'.repeat(MAX_RESPONSE_BYTES)}"}`;

describe.each(TRANSPORTS)('the %s transport', (_name, createTransport) => {
  const transportFor = (baseUrl: string) => {
    const transport = createTransport({ baseUrl });
    closing.push(transport);
    return transport;
  };

  it('takes a wallet payment, a query and a refund from the sandbox', async () => {
    const client = createPaymentClient({ ...sandbox.clientOptions(), transport: transportFor(sandbox.url), logger: false });
    const payment = await client.directPayment(directPaymentInput({ cardEncryptedData: sandbox.mintWalletToken() }));
    expect(payment).toMatchObject({ status: 'succeeded', outcomeUnknown: false });
    const details = await client.getTransaction({ transactionId: payment.transactionId! });
    expect(details).toMatchObject({ transactionId: payment.transactionId, transactionStatus: 'S' });
    const refund = await client.refund({ originalTransactionId: payment.transactionId!, amount: { orderAmount: 500, priceCurrency: 'USD' }, description: 'one teapot lid' });
    expect(refund).toMatchObject({ status: 'succeeded' });
    expect(sandbox.charges().find((charge) => charge.transactionId === payment.transactionId)).toBeDefined();
  });

  it('sends the path under the base URL, the headers and the body, and gives back status, lower-case headers and text', async () => {
    const seen: Array<{ url?: string; method?: string; header?: string | string[] }> = [];
    const url = await serve((req, res) => {
      seen.push({ url: req.url, method: req.method, header: req.headers['x-probe'] });
      res.writeHead(201, { 'Content-Type': 'application/json', 'X-Answer': 'yes' }).end('{"ok":true}');
    });
    const response = await transportFor(`${url}/base/`).send('GET', '/v1/thing?a=1', { 'x-probe': 'p' }, undefined, { timeoutMs: 5_000 });
    expect(seen).toEqual([{ url: '/base/v1/thing?a=1', method: 'GET', header: 'p' }]);
    expect(response).toMatchObject({ status: 201, body: '{"ok":true}', headers: { 'content-type': 'application/json', 'x-answer': 'yes' } });
  });

  it.each([
    ['with its Content-Length', (res: ServerResponse) => res.writeHead(200, { 'content-length': Buffer.byteLength(OVERSIZE) }).end(OVERSIZE)],
    ['streamed without a length', (res: ServerResponse) => res.writeHead(200, { 'transfer-encoding': 'chunked' }).end(OVERSIZE)],
  ])('refuses a body over MAX_RESPONSE_BYTES sent %s', async (_how, answer) => {
    const url = await serve((_req, res) => answer(res));
    const sent = transportFor(url).send('POST', '/v1/x', { 'content-type': 'application/json' }, '{}', { timeoutMs: 5_000 });
    await expect(sent).rejects.toBeInstanceOf(PaymentResponseError);
    await expect(sent).rejects.toThrow(`over ${MAX_RESPONSE_BYTES} bytes`);
  });

  it('rejects with AttemptTimeoutError when no answer comes within timeoutMs, and with the caller’s reason on abort', async () => {
    const url = await serve(() => {});
    const transport = transportFor(url);
    await expect(transport.send('POST', '/v1/x', {}, '{}', { timeoutMs: 50 })).rejects.toBeInstanceOf(AttemptTimeoutError);
    const controller = new AbortController();
    const pending = transport.send('POST', '/v1/x', {}, '{}', { timeoutMs: 5_000, signal: controller.signal });
    controller.abort(new Error('customer left'));
    await expect(pending).rejects.toThrow('customer left');
  });
});

it('the fetch transport stops a small compressed body that inflates past MAX_RESPONSE_BYTES (fetch inflates; undici hands the bytes over as sent)', async () => {
  const packed = gzipSync(OVERSIZE);
  expect(packed.byteLength).toBeLessThan(MAX_RESPONSE_BYTES / 100);
  const url = await serve((_req, res) => res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': packed.byteLength }).end(packed));
  const transport = createFetchTransport({ baseUrl: url });
  closing.push(transport);
  await expect(transport.send('POST', '/v1/x', {}, '{}', { timeoutMs: 5_000 })).rejects.toThrow(`over ${MAX_RESPONSE_BYTES} bytes`);
});

describe('createFetchTransport, public on every build', () => {
  it("sends every attempt through the app's own fetch when given one, here on Node in place of undici", async () => {
    const urls: string[] = [];
    const ownFetch: FetchFunction = (url, init) => {
      urls.push(url);
      return fetch(url, init);
    };
    const transport = createFetchTransport({ baseUrl: sandbox.url, fetch: ownFetch });
    const client = createPaymentClient({ ...sandbox.clientOptions(), transport, logger: false });
    const payment = await client.directPayment(directPaymentInput({ cardEncryptedData: sandbox.mintWalletToken() }));
    expect(payment).toMatchObject({ status: 'succeeded', outcomeUnknown: false });
    expect(urls).toEqual([`${sandbox.url}/v1/checkout/sale`]);
    expect(sandbox.charges().filter((charge) => charge.transactionId === payment.transactionId)).toHaveLength(1);
  });

  it('refuses options it cannot use, naming each with its rule, before anything is sent', () => {
    const issuesOf = (options: unknown) => {
      try {
        createFetchTransport(options as Parameters<typeof createFetchTransport>[0]);
      } catch (error) {
        expect(error).toBeInstanceOf(PaymentValidationError);
        return (error as PaymentValidationError).issues.map(({ path, message }) => ({ path, message }));
      }
      throw new Error('the options were accepted');
    };
    expect(issuesOf({ baseUrl: 'ftp://payments.example.com', fetch: 'fetch' })).toEqual([
      { path: 'baseUrl', message: 'must be an absolute http(s) URL' },
      { path: 'fetch', message: 'must be a function taking (url, init) and resolving to a Response, as fetch does' },
    ]);
    expect(issuesOf({ baseUrl: sandbox.url, fecth: fetch })).toEqual([{ path: 'fecth', message: 'is not an option; did you mean `fetch`?' }]);
  });
});

describe('the `transport` client option', () => {
  it('sends every attempt through the merchant’s transport, which close() leaves to its owner', async () => {
    const inner = createFetchTransport({ baseUrl: sandbox.url });
    let sends = 0;
    let closed = false;
    const transport: Transport = {
      send: (...args) => {
        sends++;
        return inner.send(...args);
      },
      close: async () => {
        closed = true;
      },
    };
    const client = createPaymentClient({ ...sandbox.clientOptions(), transport, logger: false });
    await expect(client.directPayment(directPaymentInput({ cardEncryptedData: sandbox.mintWalletToken() }))).resolves.toMatchObject({ status: 'succeeded' });
    await client.close();
    expect({ sends, closed }).toEqual({ sends: 1, closed: false });
  });

  it('cannot be combined with `dispatcher` or `ca`, which configure the built-in transport', () => {
    const transport = createFetchTransport({ baseUrl: sandbox.url });
    expect(() => createPaymentClient({ ...sandbox.clientOptions(), transport, ca: 'PEM', logger: false })).toThrow(
      'transport cannot be combined with `dispatcher` or `ca`, which configure the built-in transport: set them on your own transport instead',
    );
  });
});
