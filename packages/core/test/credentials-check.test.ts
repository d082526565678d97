import { setTimeout as after } from 'node:timers/promises';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPaymentClient, createPaymentRoutes, type Logger, type PaymentClient, type PaymentRoutes, type PaymentRoutesOptions } from '../src';

const WRONG_KEY = 'sk_test_wrong_9a8b7c6d5e4f3a2b1c0d';
const WEBHOOK_SECRET = 'whsec_credentials_check_0123456789';

interface Line {
  level: keyof Logger;
  fields: Record<string, unknown>;
  msg: string;
  text: string;
}

/** A logger keeping every line of every level, serialised as a log would write it. */
function capturingLogger(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at =
    (level: keyof Logger) =>
    (objOrMsg: object | string, msg?: string): void => {
      const fields = typeof objOrMsg === 'string' ? {} : (objOrMsg as Record<string, unknown>);
      const text = typeof objOrMsg === 'string' ? objOrMsg : (msg ?? '');
      lines.push({ level, fields, msg: text, text: `${level} ${text} ${JSON.stringify(fields)}` });
    };
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

interface ShownCall {
  method: string;
  path: string;
  status: number;
  code: string;
  traceId: string;
  refused: boolean;
  fix?: string;
}

/** The service calls the sandbox answered, as its dashboard's JSON lists them (refusals first). */
async function callsOnDashboard(sandbox: Sandbox): Promise<ShownCall[]> {
  const res = await fetch(`${sandbox.url}/sandbox/dashboard/data`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { snapshot: { calls: ShownCall[] } }).snapshot.calls;
}

/** A real client whose transaction queries are counted, and the last one's promise kept to await its answer. */
function watchedClient(sandbox: Sandbox): { client: PaymentClient; queries: Promise<unknown>[] } {
  const real = createPaymentClient({ ...sandbox.clientOptions(), logger: false });
  const queries: Promise<unknown>[] = [];
  const client: PaymentClient = {
    ...real,
    getTransaction: (lookup, callOptions) => {
      const answer = real.getTransaction(lookup, callOptions);
      queries.push(answer.catch(() => undefined));
      return answer;
    },
  };
  return { client, queries };
}

/**
 * Past the check's start: it is scheduled on a 0 ms timer when the routes are made, and timers of equal
 * or shorter delay fire in the order they were set, so once this resolves the check has started, or never will.
 */
const pastTheCheckStart = () => after(20);

describe('the routes check their credentials once they are made', () => {
  let sandbox: Sandbox;
  const made: PaymentRoutes[] = [];
  const clients: PaymentClient[] = [];

  const routesWith = (overrides: Partial<PaymentRoutesOptions>): PaymentRoutes => {
    const routes = createPaymentRoutes({ client: sandbox.clientOptions(), resolveOrder: () => null, webhook: { secret: WEBHOOK_SECRET }, ...overrides });
    made.push(routes);
    return routes;
  };

  /** A service call after everything before it: the check of routes made earlier has been answered by then. */
  const barrierCall = async () => {
    const client = createPaymentClient({ ...sandbox.clientOptions(), logger: false });
    clients.push(client);
    await client.createCheckoutSession({ referenceOrderId: 'barrier-order', amount: { orderAmount: 100, priceCurrency: 'USD' }, description: 'barrier' });
  };

  beforeEach(async () => {
    sandbox = await startSandbox({ log: false });
  });
  afterEach(async () => {
    await Promise.all(made.splice(0).map((routes) => routes.close()));
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await sandbox.close();
  });

  it('logs a refused key at error with its fix within seconds of start, no request made, and never the key; the refusal is on the dashboard', async () => {
    const { logger, lines } = capturingLogger();
    routesWith({ client: { ...sandbox.clientOptions(), apiKey: WRONG_KEY }, logger });

    await vi.waitFor(() => expect(lines.filter((line) => line.level === 'error')).toHaveLength(1), { timeout: 10_000, interval: 20 });
    const [refused, ...others] = lines.filter((line) => line.level !== 'debug');
    // Besides the client's own debug lines of its one attempt.
    expect(others).toEqual([]);
    expect(refused?.msg).toMatch(/refused these credentials at start-up \(A02\): every payment will fail until they are fixed/);
    expect(refused?.fields).toMatchObject({
      baseUrl: sandbox.url,
      appId: sandbox.appId,
      merchantId: sandbox.merchantId,
      serviceCode: 'A02',
      httpStatus: 401,
      traceId: expect.any(String),
      fix: expect.stringMatching(/set `client\.apiKey` to the key of this environment: the merchant portal shows it.*`sandbox\.clientOptions\(\)`/),
    });
    for (const line of lines) for (const secret of [WRONG_KEY, sandbox.apiKey, sandbox.productionApiKey, WEBHOOK_SECRET]) expect(line.text).not.toContain(secret);

    const [shown] = await callsOnDashboard(sandbox);
    expect(shown).toMatchObject({ method: 'GET', path: '/v1/transaction/query', status: 401, code: 'A02', refused: true, traceId: refused?.fields['traceId'] });
    expect(shown?.fix).toContain('sandbox.clientOptions()');
  });

  it('logs nothing for an accepted key: its query of a transaction that cannot exist is answered "no such transaction" and charges nothing', async () => {
    const { logger, lines } = capturingLogger();
    const { client, queries } = watchedClient(sandbox);
    routesWith({ client, logger });

    await vi.waitFor(() => expect(queries).toHaveLength(1), { timeout: 10_000, interval: 20 });
    await queries[0];
    // The check's own handling of the answer runs after the answer's: one turn of the event loop later.
    await after(0);
    expect(lines).toEqual([]);
    expect((await callsOnDashboard(sandbox)).map((call) => [call.path, call.code])).toEqual([['/v1/transaction/query', 'T01']]);
    expect(sandbox.charges()).toEqual([]);
  });

  it('warns, failing nothing, when the service cannot be reached at start', async () => {
    const gone = await startSandbox({ log: false });
    const baseUrl = gone.url;
    await gone.close();
    const { logger, lines } = capturingLogger();
    const routes = routesWith({ client: { ...sandbox.clientOptions(), baseUrl }, logger });

    await vi.waitFor(() => expect(lines.filter((line) => line.level !== 'debug')).toHaveLength(1), { timeout: 10_000, interval: 20 });
    expect(lines.find((line) => line.level !== 'debug')).toMatchObject({
      level: 'warn',
      msg: expect.stringContaining('the credentials could not be checked at start-up'),
      fields: { baseUrl, code: 'NETWORK_ERROR', fix: expect.stringContaining('`checkCredentials: false`') },
    });
    // The routes answer as ever: here an order resolveOrder does not know, which needs no service call.
    const answer = await routes.handle({ method: 'GET', path: '/status', headers: {}, query: { orderId: 'order-unknown' } });
    expect([answer?.status, JSON.parse(String(answer?.body))]).toEqual([404, { error: expect.objectContaining({ code: 'ORDER_NOT_FOUND' }) }]);
  });

  it('makes no call with checkCredentials: false', async () => {
    const { client, queries } = watchedClient(sandbox);
    const { logger, lines } = capturingLogger();
    routesWith({ client, logger, checkCredentials: false });
    routesWith({ client: { ...sandbox.clientOptions(), apiKey: WRONG_KEY }, logger, checkCredentials: false });
    await pastTheCheckStart();
    await barrierCall();

    expect(queries).toEqual([]);
    expect((await callsOnDashboard(sandbox)).map((call) => [call.path, call.code])).toEqual([['/v1/checkout/create-session', '0']]);
    expect(lines).toEqual([]);
  });

  it('checks once per client and per account and key in a process, however many routes are made of them (routes made per request)', async () => {
    const { client, queries } = watchedClient(sandbox);
    for (let i = 0; i < 3; i++) routesWith({ client, logger: false });
    const { logger, lines } = capturingLogger();
    for (let i = 0; i < 3; i++) routesWith({ client: { ...sandbox.clientOptions(), apiKey: WRONG_KEY }, logger });
    await pastTheCheckStart();
    await vi.waitFor(() => expect(lines.filter((line) => line.level === 'error')).toHaveLength(1), { timeout: 10_000, interval: 20 });
    await barrierCall();

    expect(queries).toHaveLength(1);
    const queried = (await callsOnDashboard(sandbox)).filter((call) => call.path === '/v1/transaction/query').map((call) => call.code);
    expect(queried.sort()).toEqual(['A02', 'T01']);
  });

  it('refuses a checkCredentials that is not true or false, naming it, before any call', () => {
    expect(() => routesWith({ checkCredentials: 'no' as unknown as boolean })).toThrow(
      expect.objectContaining({ name: 'PaymentValidationError', issues: [expect.objectContaining({ path: 'checkCredentials', message: 'must be true or false' })] }),
    );
  });

  it('close() cancels a check in flight: nothing is logged and nothing is left waiting for the answer', async () => {
    sandbox.injectFault({ kind: 'delay', path: '/v1/transaction/query', delayMs: 60_000 });
    const { logger, lines } = capturingLogger();
    const { client, queries } = watchedClient(sandbox);
    const routes = routesWith({ client, logger });
    await vi.waitFor(() => expect(sandbox.faultsApplied().delay).toBe(1), { timeout: 10_000, interval: 20 });

    await routes.close();
    // Settled at once by the abort, not by the answer held for a minute (the test's own time-out is far shorter).
    await queries[0];
    await after(0);
    expect(lines).toEqual([]);
  });
});
