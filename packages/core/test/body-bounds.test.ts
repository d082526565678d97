import { execFile } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createPaymentRoutes, PaymentValidationError, signWebhook } from '../src';
import { MAX_JSON_DEPTH } from '../src/entries/internal';
import { orderAppsClosedAfterEach, type OrderApp } from './support/order-app';

const startApp = orderAppsClosedAfterEach();

async function postText(app: OrderApp, path: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${app.routesUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, json: (await res.json()) as unknown };
}

/**
 * The attacker, in a process of its own so that only the server's work shows
 * in this process's event loop: `count` concurrent POSTs of a 49,000-level
 * JSON body, printing every answer as JSON.
 */
const ATTACKER = `
const body = '['.repeat(49000) + ']'.repeat(49000);
const [url, count] = process.argv.slice(1);
Promise.all(Array.from({ length: Number(count) }, () =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    .then(async (res) => ({ status: res.status, json: await res.json() })),
)).then((answers) => process.stdout.write(JSON.stringify(answers)));
`;

/**
 * Sends `count` copies of the 49,000-level body at once while the event loop's
 * delay is sampled; prints the figures (never asserted: they depend on the
 * machine) and resolves with the statuses and bodies answered.
 */
async function deepBurst(app: OrderApp, label: string, count = 100) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', ATTACKER, `${app.routesUrl}/wallet/pay`, String(count)]);
  histogram.disable();
  const answers = JSON.parse(stdout) as Array<{ status: number; json: unknown }>;
  expect(answers).toHaveLength(count);
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  console.info(
    `event-loop delay, ${count} concurrent 49,000-level bodies (${label}): max ${ms(histogram.max)} ms, p99 ${ms(histogram.percentile(99))} ms, mean ${ms(histogram.mean)} ms`,
  );
  return answers;
}

describe('browser routes take small bodies; the webhook keeps its own limit', () => {
  it('a wallet payment fits the 16 KiB default with room to spare; a 17 KiB body is refused 413 and the fix logged', async () => {
    const app = await startApp();
    const token = app.sandbox.mintWalletToken();
    const body = JSON.stringify({ orderId: app.order(), token });
    console.info(`sandbox wallet token: ${Buffer.byteLength(token)} bytes; /wallet/pay body: ${Buffer.byteLength(body)} bytes`);
    expect((await postText(app, '/wallet/pay', body)).status).toBe(200);

    const padded = JSON.stringify({ orderId: app.order(), token: app.sandbox.mintWalletToken(), note: 'x'.repeat(17 * 1024) });
    for (const path of ['/wallet/pay', '/checkout']) {
      expect(await postText(app, path, padded)).toEqual({ status: 413, json: { error: { code: 'BODY_TOO_LARGE', message: 'The request body is too large.' } } });
    }
    expect(app.logLines.filter((line) => line.startsWith('warn') && line.includes('at most 16384 bytes (bodyLimitBytes)'))).toHaveLength(2);
    expect(app.sandbox.charges()).toHaveLength(1);
  });

  it('a genuine 50 KiB webhook delivery is still handled under its own 100 KiB limit', async () => {
    const app = await startApp();
    const payload = {
      transactionId: 'TX-large',
      transactionRequestId: 'REQ-large',
      referenceOrderId: 'order-large',
      transactionType: 'SALE',
      transactionStatus: 'S',
      amount: { orderAmount: 1250, priceCurrency: 'USD' },
      notifyTime: new Date(app.sandbox.clock.now()).toISOString(),
      padding: 'x'.repeat(50 * 1024),
    };
    const delivery = signWebhook({ payload, secret: app.sandbox.webhookSecret, timestamp: app.sandbox.clock.now() });
    const res = await postText(app, '/webhook', delivery.body, delivery.headers);
    expect(res).toEqual({ status: 200, json: { received: true } });
    expect(app.events.map((event) => event.transactionId)).toEqual(['TX-large']);
  });
});

describe('bodyReadTimeoutMs', () => {
  it('is validated with the other route options: the field and the rule are named', () => {
    for (const bodyReadTimeoutMs of [0, 1.5, '10000']) {
      let thrown: unknown;
      try {
        createPaymentRoutes({
          client: { apiKey: 'sk_test_0123456789abcdef', baseUrl: 'http://127.0.0.1:9', appId: 'app', merchantId: 'm', localDevelopment: true },
          resolveOrder: () => null,
          webhook: { secret: 'whsec_0123456789abcdef' },
          bodyReadTimeoutMs: bodyReadTimeoutMs as number,
        });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(PaymentValidationError);
      expect((thrown as PaymentValidationError).issues.map((issue) => issue.path)).toEqual(['bodyReadTimeoutMs']);
    }
  });
});

describe('deeply nested JSON never reaches the parser', () => {
  it('100 concurrent 49,000-level bodies: 413 for their size under the default limit', async () => {
    const app = await startApp();
    const answers = await deepBurst(app, 'default 16 KiB limit');
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([413]));
  });

  it(`100 concurrent 49,000-level bodies under a raised limit: 400 from the nesting check (deeper than ${MAX_JSON_DEPTH}), not the parser`, async () => {
    const app = await startApp({ options: () => ({ bodyLimitBytes: 100 * 1024 }) });
    const answers = await deepBurst(app, 'bodyLimitBytes 100 KiB');
    for (const answer of answers) {
      expect(answer).toEqual({ status: 400, json: { error: { code: 'INVALID_BODY', message: `The request body nests deeper than ${MAX_JSON_DEPTH} levels.` } } });
    }
  });
});
