import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PaymentEvent } from '@paymount/core';
import { paymentRouter } from '@paymount/express';
import { startSandbox, type Delivery, type Sandbox } from '@paymount/sandbox';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../../../tools/adapter-testing';
import { captureLogger } from '../support/capture';

/**
 * The sandbox's developer commands end to end: the built `paymount-sandbox`
 * CLI, as a child process, drives a running sandbox, whose webhooks reach a
 * real Express app's mounted paymount webhook route and its handlers.
 */

const CLI = join(dirname(createRequire(import.meta.url).resolve('@paymount/sandbox/package.json')), 'dist', 'cli.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[]): Promise<Run> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npx turbo run build --filter=@paymount/sandbox\` first`);
  return new Promise((resolve) => {
    const env = { ...process.env, PAYMOUNT_SANDBOX_URL: sandbox.url };
    execFile(process.execPath, [CLI, ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

let sandbox: Sandbox;
let server: Listening;
let webhookUrl: string;
const handled: PaymentEvent[] = [];
const log = captureLogger();

beforeAll(async () => {
  // allowLocalNotifyUrl stays off: a trigger may forward to this machine regardless.
  sandbox = await startSandbox({ webhookRetryDelaysMs: [100, 100] });
  const router = paymentRouter({
    client: sandbox.clientOptions(),
    resolveOrder: () => null,
    webhook: { secret: sandbox.webhookSecret },
    clock: sandbox.clock,
    logger: log.logger,
    on: { '*': (event) => void handled.push(event) },
  });
  const app = express();
  app.use('/payments', router);
  server = await listen(app);
  webhookUrl = `${server.url}/payments/webhook`;
});

afterAll(async () => {
  await server?.close();
  await sandbox?.close();
});

const runsOf = (transactionId: unknown) => handled.filter((event) => event.transactionId === transactionId);

describe('paymount-sandbox trigger / resend / deliveries against an Express shop', () => {
  let paid: Delivery;

  it('trigger payment.succeeded reaches the mounted webhook route, whose handler runs once', async () => {
    const run = await cli(['trigger', 'payment.succeeded', '--forward-to', webhookUrl, '--reference-order-id', 'order-e2e-1', '--json']);
    expect(run.code).toBe(0);
    paid = JSON.parse(run.stdout) as Delivery;
    expect(paid).toMatchObject({ event: 'payment.succeeded', url: webhookUrl, state: 'delivered', attempts: [{ status: 200, answer: '{"received":true}' }] });
    expect(run.stderr).toContain('attempt 1 at');
    const charge = sandbox.charges().find((c) => c.transactionId === paid.payload.transactionId);
    expect(charge).toMatchObject({ referenceOrderId: 'order-e2e-1', transactionStatus: 'S' });
    expect(runsOf(charge?.transactionId)).toEqual([
      expect.objectContaining({ type: 'payment.succeeded', referenceOrderId: 'order-e2e-1', deliveryId: paid.deliveryId }),
    ]);
  });

  it('resend of the handled delivery is answered as a duplicate and runs no handler again', async () => {
    const run = await cli(['resend', paid.deliveryId]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/state +delivered/);
    expect(run.stdout).toMatch(new RegExp(`resentFrom +${paid.deliveryId}`));
    expect(run.stdout).toContain('answer            HTTP 200 {"received":true,"duplicate":true}');
    expect(runsOf(paid.payload.transactionId)).toHaveLength(1);
  });

  it('trigger refund.succeeded: a paid payment and its refund, the refund\'s webhook handled', async () => {
    const run = await cli(['trigger', 'refund.succeeded', '--forward-to', webhookUrl, '--amount', '4200']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/answer +HTTP 200 \{"received":true\}/);
    const refund = sandbox.refunds().at(-1)!;
    expect(refund).toMatchObject({ transactionStatus: 'S', amount: { totalAmount: 4200 } });
    expect(runsOf(refund.transactionId)).toEqual([expect.objectContaining({ type: 'refund.succeeded' })]);
  });

  it('a shop that refuses the delivery (wrong mount path): every attempt shown, exit 5', async () => {
    const run = await cli(['trigger', 'payment.failed', '--forward-to', `${server.url}/webhook`]);
    expect(run.code).toBe(5);
    expect(run.stderr.match(/attempt \d at \S+: HTTP 404/g), run.stderr).toHaveLength(3);
    expect(run.stderr).toContain('never answered 200 in 3 attempt(s)');
  });

  it('a bad URL or an unknown delivery exits non-zero with a clear message', async () => {
    const badUrl = await cli(['trigger', 'payment.succeeded', '--forward-to', 'http://192.168.0.10/payments/webhook']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('D02 forwardTo must be an http(s) URL on this machine');
    const unknown = await cli(['resend', 'not-a-delivery']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('no webhook delivery "not-a-delivery" in the delivery log');
  });

  it('deliveries --json parses and lists each delivery with its attempts and answers', async () => {
    const run = await cli(['deliveries', '--json']);
    expect(run.code).toBe(0);
    const deliveries = JSON.parse(run.stdout) as Delivery[];
    expect(deliveries.map((d) => [d.event, d.state, d.resentFrom ?? null])).toEqual([
      ['payment.succeeded', 'delivered', null],
      ['payment.succeeded', 'delivered', paid.deliveryId],
      ['refund.succeeded', 'delivered', null],
      ['payment.failed', 'failed', null],
    ]);
    expect(deliveries[1]?.attempts[0]?.answer).toBe('{"received":true,"duplicate":true}');
  });

  it('no CLI output or shop log line carries the API keys or the webhook secret', async () => {
    const outputs = await Promise.all([cli(['deliveries']), cli(['deliveries', '--json'])]);
    const everything = [...outputs.flatMap((run) => [run.stdout, run.stderr]), ...log.entries.map((entry) => entry.line)].join('\n');
    expect(log.entries.some((entry) => entry.msg === 'duplicate webhook delivery ignored')).toBe(true);
    for (const secret of [sandbox.testApiKey, sandbox.productionApiKey, sandbox.webhookSecret]) expect(everything).not.toContain(secret);
  });
});
