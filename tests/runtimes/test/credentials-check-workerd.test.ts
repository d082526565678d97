import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startWorker, type RunningWorker } from '../support/workerd';

const WRONG_KEY = 'sk_test_wrong_workerd_0123456789ab';
const WEBHOOK_SECRET = 'whsec_credentials_workerd_0123456789';

interface LoggedLine {
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

/**
 * A Worker whose payment routes are made in its global scope, where workerd allows no timer and no
 * I/O: the credentials check must neither break the Worker's start nor call out there. What the
 * routes log is kept and answered on GET /log.
 */
function workerMaking(config: object): string {
  return `import { createFetchHandler } from '@paymount/core';
const config = ${JSON.stringify(config)};
const log = [];
const keep = (level) => (fields, message) => void log.push({ level, message: String(message ?? ''), fields });
const payments = createFetchHandler(
  { ...config, resolveOrder: () => null, logger: { debug: () => {}, info: () => {}, warn: keep('warn'), error: keep('error') } },
  { mountPath: '/payments' },
);
export default {
  fetch(request) {
    return new URL(request.url).pathname === '/log' ? Response.json(log) : payments(request);
  },
};
`;
}

let sandbox: Sandbox;
let worker: RunningWorker;

beforeAll(async () => {
  sandbox = await startSandbox({ log: false });
  const { clock: _clock, ...client } = sandbox.clientOptions();
  worker = await startWorker({
    source: workerMaking({ client: { ...client, apiKey: WRONG_KEY }, webhook: { secret: WEBHOOK_SECRET }}),
    file: 'credentials-check-worker.mjs',
  });
});

afterAll(async () => {
  await worker?.dispose();
  await sandbox?.close();
});

/** What the routes logged of their credentials (besides, on workerd, the warning that memory stores are per isolate). */
async function logged(): Promise<LoggedLine[]> {
  const lines = (await (await fetch(new URL('/log', worker.url))).json()) as LoggedLine[];
  return lines.filter((line) => !line.message.includes('in-memory stores'));
}

async function queriesAnswered(): Promise<{ code: string; path: string }[]> {
  const data = (await (await fetch(`${sandbox.url}/sandbox/dashboard/data`)).json()) as { snapshot: { calls: { code: string; path: string }[] } };
  return data.snapshot.calls.filter((call) => call.path === '/v1/transaction/query');
}

it('routes made in a Worker global scope start, call nothing there, and check the key with the first request: a refused one is logged with its fix', async () => {
  expect(await logged()).toEqual([]);
  expect(await queriesAnswered()).toEqual([]);

  const first = await fetch(new URL('/payments/status?orderId=order-unknown', worker.url));
  expect(first.status).toBe(404);
  await first.body?.cancel();

  await vi.waitFor(async () => expect((await logged()).filter((line) => line.level === 'error')).toHaveLength(1), { timeout: 15_000, interval: 100 });
  const lines = await logged();
  expect(lines).toEqual([
    expect.objectContaining({
      level: 'error',
      message: expect.stringContaining('refused these credentials at start-up (A02)'),
      fields: expect.objectContaining({ serviceCode: 'A02', fix: expect.stringContaining('client.apiKey') }),
    }),
  ]);
  expect(JSON.stringify(lines)).not.toContain(WRONG_KEY);
  expect((await queriesAnswered()).map((call) => call.code)).toEqual(['A02']);

  // Once: later requests do not ask again.
  await (await fetch(new URL('/payments/status?orderId=order-unknown', worker.url))).body?.cancel();
  expect((await queriesAnswered()).map((call) => call.code)).toEqual(['A02']);
});
