import { createServer } from 'node:net';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPaymentClient, PaymentErrorCode, PaymentNetworkError, PaymentValidationError, type PaymentClient, type Transport } from '../src';
import { platform } from '../src/entries/internal';
import { createFetchTransport } from '../src/index';
import { directPaymentInput } from './support/fixtures';
import { CONNECTION_NEVER_MADE, DENO_BLOCKED_PORT, LOST_AFTER_SENDING } from './support/runtime-fetch-errors';

/*
 * A request that never left the process is not a payment in doubt: the call
 * fails at once, says what is wrong with the runtime, and is not retried.
 * Runs on both platforms (vitest.config.ts): the default transport is undici
 * on one, fetch on the other.
 */

let sandbox: Sandbox;
const closing: Array<{ close(): Promise<void> }> = [];

// A sandbox per test, so that its ledger holds what this test's calls charged and nothing else.
beforeEach(async () => {
  sandbox = await startSandbox();
  closing.push(sandbox);
});
afterEach(async () => {
  await Promise.all(closing.splice(0).map((item) => item.close()));
});

/** A transport that fails as `fail` says, counting how often it was asked to send. */
function failingTransport(fail: () => Promise<never>): Transport & { sends: number } {
  const transport = {
    sends: 0,
    send() {
      transport.sends++;
      return fail();
    },
    close: async () => {},
  };
  return transport;
}

function clientWith(options: { transport?: Transport; baseUrl?: string }): PaymentClient {
  const client = createPaymentClient({
    ...sandbox.clientOptions(),
    ...options,
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    logger: false,
  });
  closing.push(client);
  return client;
}

async function payWith(client: PaymentClient): Promise<unknown> {
  return client.directPayment(directPaymentInput({ cardEncryptedData: sandbox.mintWalletToken() })).then(
    (result) => result,
    (error: unknown) => error,
  );
}

describe.each([
  [
    'a transport whose send throws synchronously (as Bun did on undici: no Agent.prototype.dispatch)',
    () => {
      throw new TypeError('dispatcher.dispatch is not a function');
    },
    /dispatcher\.dispatch is not a function.*nothing reached the service.*provides fetch, or pass a working `transport`/,
  ],
  [
    'a transport that rejects with a TypeError before sending (a request the runtime will not build)',
    () => Promise.reject(new TypeError("Failed to construct 'Request': Invalid header value")),
    /Invalid header value.*nothing reached the service/,
  ],
  [
    "Deno's permission error (no --allow-net)",
    () => Promise.reject(Object.assign(new Error('Requires net access to "127.0.0.1", run again with the --allow-net flag'), { name: 'NotCapable' })),
    /--allow-net.*nothing reached the service.*on Deno, run with --allow-net/,
  ],
] as const)('%s', (_label, fail, message) => {
  it('fails the payment at once with TRANSPORT_UNAVAILABLE: never pending, never retried, nothing charged', async () => {
    const transport = failingTransport(fail as () => Promise<never>);
    const outcome = await payWith(clientWith({ transport }));
    expect(outcome).toBeInstanceOf(PaymentNetworkError);
    expect(outcome).toMatchObject({ code: PaymentErrorCode.TRANSPORT_UNAVAILABLE, outcomeUnknown: false });
    expect((outcome as Error).message).toMatch(message);
    expect(transport.sends).toBe(1);
    expect(sandbox.charges()).toHaveLength(0);
  });
});

it(`a host that refuses the connection (${platform.name}'s own transport) fails as not sent: retried, then NETWORK_ERROR, never pending`, async () => {
  // A port that was free a moment ago and has nothing listening on it now.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const outcome = await payWith(clientWith({ baseUrl: `http://127.0.0.1:${port}` }));
  expect(outcome).toBeInstanceOf(PaymentNetworkError);
  expect(outcome).toMatchObject({ code: PaymentErrorCode.NETWORK_ERROR, outcomeUnknown: false });
  expect((outcome as Error).message).toMatch(/Could not connect for POST .*ECONNREFUSED/);
  expect(sandbox.charges()).toHaveLength(0);
});

it("a service on a port fetch refuses (Node's undici fetch: 'bad port', before any byte) fails as not sent, naming the port rule", async () => {
  // 6000 (X11) is on the Fetch standard's list of blocked ports; nothing needs to listen there, fetch never connects.
  const transport = createFetchTransport({ baseUrl: 'http://127.0.0.1:6000' });
  const sends = { count: 0 };
  const counted: Transport = { send: (...args) => (sends.count++, transport.send(...args)), close: () => transport.close() };
  const outcome = await payWith(clientWith({ transport: counted }));
  expect(outcome).toBeInstanceOf(PaymentNetworkError);
  expect(outcome).toMatchObject({ code: PaymentErrorCode.TRANSPORT_UNAVAILABLE, outcomeUnknown: false });
  expect((outcome as Error).message).toMatch(/bad port.*nothing reached the service.*port fetch refuses to connect to/);
  expect(sends.count).toBe(1);
  expect(sandbox.charges()).toHaveLength(0);
});

describe.each(CONNECTION_NEVER_MADE.map((f) => [f.runtime, f.what, f.error] as const))('%s, %s, as its fetch reports it', (_runtime, _what, error) => {
  it('fails as not sent: retried, then NETWORK_ERROR with outcomeUnknown false, never pending', async () => {
    const transport = failingTransport(() => Promise.reject(error()));
    const outcome = await payWith(clientWith({ transport }));
    expect(outcome).toBeInstanceOf(PaymentNetworkError);
    expect(outcome).toMatchObject({ code: PaymentErrorCode.NETWORK_ERROR, outcomeUnknown: false });
    expect((outcome as Error).message).toMatch(/^Could not connect for POST \/v1\/\S+ \((ECONNREFUSED|ENOTFOUND|error sending request .*client error \(Connect\).*)\)$/);
    expect(transport.sends).toBe(3);
    expect(sandbox.charges()).toHaveLength(0);
  });
});

it(`${DENO_BLOCKED_PORT.runtime}, ${DENO_BLOCKED_PORT.what}: fails at once as not sent, naming the port rule`, async () => {
  const transport = failingTransport(() => Promise.reject(DENO_BLOCKED_PORT.error()));
  const outcome = await payWith(clientWith({ transport }));
  expect(outcome).toBeInstanceOf(PaymentNetworkError);
  expect(outcome).toMatchObject({ code: PaymentErrorCode.TRANSPORT_UNAVAILABLE, outcomeUnknown: false });
  expect((outcome as Error).message).toMatch(/Requests to port 6000 are blocked.*nothing reached the service.*port fetch refuses to connect to/);
  expect(transport.sends).toBe(1);
});

describe.each(LOST_AFTER_SENDING.map((f) => [f.runtime, f.what, f.error] as const))('%s, %s, as its fetch reports it', (_runtime, _what, error) => {
  it('is a payment in doubt: retried with the same request id, then pending with outcomeUnknown', async () => {
    const transport = failingTransport(() => Promise.reject(error()));
    const outcome = await payWith(clientWith({ transport }));
    expect(outcome).toMatchObject({ status: 'pending', outcomeUnknown: true });
    expect(transport.sends).toBe(3);
  });
});

it('a connection lost after sending is still a payment in doubt (pending), as before', async () => {
  sandbox.injectFault({ kind: 'reset-after', times: 3 });
  const client = clientWith({});
  const result = await client.directPayment(directPaymentInput({ cardEncryptedData: sandbox.mintWalletToken() }));
  expect(result).toMatchObject({ status: 'pending', outcomeUnknown: true });
  expect(sandbox.charges()).toHaveLength(1);
});

it('refuses a `transport` option that is not a Transport, naming the option and what it must be', () => {
  const attempt = () => clientWith({ transport: { send: 'fetch' } as unknown as Transport });
  expect(attempt).toThrow(PaymentValidationError);
  expect(attempt).toThrow(/transport must be a Transport: an object with send\(method, path, headers, body, \{ timeoutMs, signal \}\) and close\(\) methods/);
});
