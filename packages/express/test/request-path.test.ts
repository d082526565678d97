import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import express from 'express';
import type { MerchantOrder } from '@paymount/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../../../tools/adapter-testing';
import { paymentRouter, type PaymentRouter } from '../src';

// packages/core/ARCHITECTURE.md names, hop by hop, the files a request from Express crosses. This test runs each
// flow against the sandbox and asks V8 which of core's and this adapter's source files ran a function while it
// ran, so the files written there stay the files the code takes. The sandbox runs in a process of its own: in
// this one it would run core's rules from the same files and be counted with the routes.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CORE_SRC = 'core/src/';
const ARCHITECTURE = readFileSync(new URL('../../core/ARCHITECTURE.md', import.meta.url), 'utf8');
const SANDBOX_CLI = fileURLToPath(new URL('../../sandbox/dist/cli.js', import.meta.url));

/** The doc's section under `### title`, up to the next heading. */
function section(title: string): string {
  const start = ARCHITECTURE.indexOf(`### ${title}\n`);
  if (start < 0) throw new Error(`packages/core/ARCHITECTURE.md has no section "### ${title}"`);
  const end = ARCHITECTURE.indexOf('\n#', start + 4);
  return ARCHITECTURE.slice(start, end < 0 ? undefined : end);
}

/** The source files a section names in backticks: core's as `layer/file.ts`, the adapter's as `express/src/file.ts`. */
function namedFiles(text: string): string[] {
  // A flow written as another's files and more names that one's section.
  if (text.includes('the files of POST /checkout')) text += section('POST /checkout from Express');
  const names = [...text.matchAll(/`((?:shared|http|platform|schemas|telemetry|client|webhooks|webhook-dedupe|orders|routes|express\/src)\/[\w/.-]+\.ts)`/g)];
  return [...new Set(names.map(([, name = '']) => (name.startsWith('express/') ? name : `${CORE_SRC}${name}`)))].sort();
}

/** "**N files** (M of core, K of the adapter" as written in a section. */
function fileFigures(text: string): { all: number; core: number } {
  const figure = /\*\*(\d+) files\*\* \((\d+) of core/.exec(text);
  if (!figure) throw new Error('the section gives no "**N files** (M of core" figure');
  return { all: Number(figure[1]), core: Number(figure[2]) };
}

interface SandboxProcess {
  child: ChildProcess;
  info: { url: string; appId: string; merchantId: string; testApiKey: string; webhookSecret: string; gatewayId: string };
}

async function startSandboxProcess(): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [SANDBOX_CLI, '--json', '--port', '0', '--allow-local-notify-url'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const [line] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [undefined])])) as [string | undefined];
  if (line === undefined) throw new Error(`the sandbox (${SANDBOX_CLI}) ended before it announced itself`);
  return { child, info: JSON.parse(line) as SandboxProcess['info'] };
}

const order = (orderId: string): MerchantOrder => ({ referenceOrderId: orderId, amount: { orderAmount: 1250, priceCurrency: 'USD' }, description: 'A path-measured order' });

describe('the files packages/core/ARCHITECTURE.md names are those a request from Express runs', () => {
  let sandbox: SandboxProcess;
  let router: PaymentRouter;
  let app: Listening;
  const inspector = new Session();
  /** Each order's webhook delivery, kept by the app's /held route for the test to replay to the routes. */
  const deliveries = new Map<string, { headers: Record<string, string>; body: string }>();
  const arrivals = new Map<string, () => void>();
  let handled: () => void = () => undefined;

  /** The delivery of `orderId`'s payment, once the sandbox has sent it. */
  async function deliveryOf(orderId: string): Promise<{ headers: Record<string, string>; body: string }> {
    if (!deliveries.has(orderId)) await new Promise<void>((resolve) => arrivals.set(orderId, resolve));
    return deliveries.get(orderId) as { headers: Record<string, string>; body: string };
  }

  /** Hands `orderId`'s delivery to the routes as the service would, and waits for its handler. */
  async function deliver(orderId: string): Promise<void> {
    const delivery = await deliveryOf(orderId);
    const handledNow = new Promise<void>((resolve) => (handled = resolve));
    const answer = await fetch(`${app.url}/payments/webhook`, { method: 'POST', headers: delivery.headers, body: delivery.body });
    expect(answer.status).toBe(200);
    await handledNow;
  }

  beforeAll(async () => {
    sandbox = await startSandboxProcess();
    const { info } = sandbox;
    router = paymentRouter({
      client: { apiKey: info.testApiKey, baseUrl: info.url, appId: info.appId, merchantId: info.merchantId, localDevelopment: true, logger: false },
      resolveOrder: order,
      // Every delivery is kept, so none reaches the routes while another flow is measured.
      notifyUrl: () => `${app.url}/held`,
      merchantReturnUrl: 'http://127.0.0.1/shop/thanks',
      wallet: { gatewayId: info.gatewayId, merchantName: 'Path Shop' },
      webhook: { secret: info.webhookSecret },
      checkCredentials: false,
      logger: false,
      on: { 'payment.succeeded': () => handled() },
    });
    const shop = express();
    shop.use('/payments', router);
    shop.post('/held', express.text({ type: '*/*' }), (req, res) => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter((h): h is [string, string] => typeof h[1] === 'string' && h[0].startsWith('x-')));
      const body = req.body as string;
      const { referenceOrderId } = JSON.parse(body) as { referenceOrderId: string };
      deliveries.set(referenceOrderId, { headers: { ...headers, 'content-type': 'application/json' }, body });
      res.json({});
      arrivals.get(referenceOrderId)?.();
    });
    app = await listen(shop);
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    // Each flow once before measuring, so what is measured is a request's work, not loading the modules.
    await checkout('warm-1');
    await payWallet('warm-2');
    await deliver('warm-2');
  });

  afterAll(async () => {
    await inspector.post('Profiler.stopPreciseCoverage');
    inspector.disconnect();
    await app?.close();
    await router?.paymentRoutes.close();
    sandbox?.child.kill();
  });

  async function checkout(orderId: string): Promise<void> {
    const answer = await fetch(`${app.url}/payments/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderId }) });
    expect(answer.status).toBe(201);
  }

  async function payWallet(orderId: string): Promise<void> {
    const minted = await fetch(`${sandbox.info.url}/sandbox/wallet-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const { token } = (await minted.json()) as { token: string };
    const answer = await fetch(`${app.url}/payments/wallet/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderId, token }) });
    expect(answer.status).toBe(200);
  }

  /** Core's and the adapter's source files that ran a function while `run` ran, as `core/src/...` and `express/src/...`. */
  async function filesRunBy(run: () => Promise<void>): Promise<string[]> {
    await inspector.post('Profiler.takePreciseCoverage');
    await run();
    const { result } = await inspector.post('Profiler.takePreciseCoverage');
    const files = new Set<string>();
    for (const script of result) {
      const path = script.url.startsWith('file:') ? fileURLToPath(script.url) : script.url;
      const name = path.startsWith(ROOT) ? path.slice(ROOT.length) : '';
      // The entries only pass names on (the test's and the adapter's imports): no hop of their own.
      if (!/^(core|express)\/src\//.test(name) || name.startsWith(`${CORE_SRC}entries/`) || name === `${CORE_SRC}index.ts`) continue;
      if (script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0)) files.add(name);
    }
    return [...files].sort();
  }

  function expectTheDocSays(title: string, ran: string[]): void {
    const text = section(title);
    expect(ran).toEqual(namedFiles(text));
    const figures = fileFigures(text);
    expect(ran.length).toBe(figures.all);
    expect(ran.filter((name) => name.startsWith(CORE_SRC)).length).toBe(figures.core);
  }

  it('POST /checkout', async () => {
    expectTheDocSays('POST /checkout from Express', await filesRunBy(() => checkout('path-checkout')));
  });

  it('POST /wallet/pay', async () => {
    await checkout('path-wallet');
    expectTheDocSays('Wallet pay (POST /wallet/pay)', await filesRunBy(() => payWallet('path-wallet')));
  });

  it('POST /webhook, handled inline', async () => {
    await payWallet('path-webhook');
    await deliveryOf('path-webhook');
    expectTheDocSays('Webhook, inline', await filesRunBy(() => deliver('path-webhook')));
  });
});
