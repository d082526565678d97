import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orders } from '../../context/orders';
import { blockFile } from '../../src/workspace';

/** A free port on 127.0.0.1, for the README app's `PORT`. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Resolves once nothing listens at `origin` any more. */
async function closed(origin: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(origin, { signal: AbortSignal.timeout(1_000) });
    } catch (error) {
      if ((error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') return;
    }
    if (Date.now() > deadline) throw new Error(`${origin} still answers ${timeoutMs} ms after shutdown`);
    await sleep(50);
  }
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The form the page's button `id` submits, read from the page as a browser would. */
function formAction(html: string, buttonId: string, origin: string): string {
  const form = html.split('<form').find((part) => part.includes(`id="${buttonId}"`));
  const action = /action="([^"]+)"/.exec(form ?? '')?.[1];
  if (!action) throw new Error(`the hosted page has no form with button #${buttonId}`);
  return new URL(action, origin).href;
}

/**
 * A shopper's hosted checkout: `POST /checkout`, the sandbox's page, its
 * **Pay with test wallet** button (`headers` on the checkout: a signed-in shopper's). Resolves
 * the sandbox's origin.
 */
export async function payOnHostedPage(paymentsUrl: string, orderId: string, shopOrigin: string, headers: Record<string, string> = {}): Promise<string> {
  const checkout = await postJson(`${paymentsUrl}/checkout`, { orderId }, headers);
  expect(checkout.status).toBe(201);
  const checkoutUrl = new URL(String(checkout.body.checkoutUrl));
  const page = await fetch(checkoutUrl);
  expect(page.status).toBe(200);
  const paid = await fetch(formAction(await page.text(), 'pay', checkoutUrl.origin), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  // Back to the shop: the README's merchantReturnUrl.
  expect(paid.headers.get('location')).toMatch(new RegExp(`^${shopOrigin}/orders/${orderId}\\?`));
  return checkoutUrl.origin;
}

/** A shopper's wallet payment: the wallet request, a token from the sandbox's test wallet, `POST /wallet/pay`. */
export async function payWithWallet(paymentsUrl: string, orderId: string, sandboxOrigin: string): Promise<void> {
  const config = await fetch(`${paymentsUrl}/wallet/config?orderId=${orderId}`);
  expect(config.status).toBe(200);
  const minted = await postJson(`${sandboxOrigin}/sandbox/wallet-token`, {});
  expect(minted.status).toBe(201);
  const paid = await postJson(`${paymentsUrl}/wallet/pay`, { orderId, token: minted.body.token });
  expect(paid).toMatchObject({ status: 200, body: { status: 'succeeded', referenceOrderId: orderId } });
}

export interface RunningQuickStart {
  /** `http://127.0.0.1:<port>`, where the README app listens. */
  origin: string;
  /** Shuts the app down the way its README does. */
  stop(): void | Promise<void>;
}

/** The READMEs whose quick start has an order page (merchantReturnUrl lands there). */
const ORDER_PAGES = new Set(['express', 'fastify', 'hono', 'koa', 'nestjs on express', 'nestjs on fastify']);
/** The READMEs whose "Testing your handlers" block posts to the quick start's app over HTTP. */
const TESTING_BLOCKS = new Set(['express', 'fastify', 'hono']);

/**
 * Runs a README's quick start, as written, against the sandbox it starts:
 * a hosted payment and a wallet payment, each marked paid by the README's own
 * webhook handler, then its shutdown, which must close the app and the sandbox.
 */
export function describeQuickStart(name: string, start: (port: number) => Promise<RunningQuickStart>): void {
  describe(`${name} README quick start`, () => {
    let app: RunningQuickStart | undefined;
    let sandboxOrigin: string | undefined;
    const running = (): RunningQuickStart => {
      if (!app) throw new Error('the quick start did not start');
      return app;
    };

    /** What the embedded sandbox printed at start, as `npm start`/`node app.ts` shows it in development. */
    const printed: string[] = [];

    beforeAll(async () => {
      vi.stubEnv('NODE_ENV', 'development');
      const info = vi.spyOn(console, 'info').mockImplementation((line: unknown) => void printed.push(String(line)));
      try {
        app = await start(await freePort());
      } finally {
        info.mockRestore();
        vi.unstubAllEnvs();
      }
    });

    it('its sandbox printed once where it listens, its dashboard and its webhook secret', () => {
      expect(printed).toEqual([expect.stringMatching(/listens at http:\/\/127\.0\.0\.1:\d+\n.*\/sandbox\/dashboard\n.*webhook secret .*: whsec_\w+\n/)]);
    });

    afterAll(async () => {
      await app?.stop();
    });

    it('takes a hosted checkout paid on the sandbox page, and its webhook handler marks the order paid', async () => {
      const { origin } = running();
      const order = orders.add(`hosted-${name.replace(/\W+/g, '-')}`, 2500);
      sandboxOrigin = await payOnHostedPage(`${origin}/payments`, order.id, origin);
      expect(await orders.waitFor(order.id, (o) => o.status === 'paid')).toMatchObject({ transactionId: expect.any(String) });
      if (ORDER_PAGES.has(name)) {
        // Where the shopper lands: the README's own order page answers.
        const page = await fetch(`${origin}/orders/${order.id}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain(`Order ${order.id}`);
      }
    });

    it.runIf(TESTING_BLOCKS.has(name))("its 'Testing your handlers' block, run as written with the printed secret, is answered 200", async () => {
      const secret = /webhook secret .*: (whsec_\w+)/.exec(printed.join('\n'))?.[1];
      expect(secret).toBeDefined();
      vi.stubEnv('PAYMENT_WEBHOOK_SECRET', secret!);
      const answers: number[] = [];
      const log = vi.spyOn(console, 'log').mockImplementation((status: unknown) => void answers.push(Number(status)));
      try {
        await import(blockFile(name, 'Testing your handlers'));
      } finally {
        log.mockRestore();
        vi.unstubAllEnvs();
      }
      expect(answers).toEqual([200]);
    });

    it('takes a wallet payment, and its webhook handler marks the order paid', async () => {
      const { origin } = running();
      if (!sandboxOrigin) throw new Error('the hosted checkout test did not find the sandbox');
      const order = orders.add(`wallet-${name.replace(/\W+/g, '-')}`, 1999);
      await payWithWallet(`${origin}/payments`, order.id, sandboxOrigin);
      expect(await orders.waitFor(order.id, (o) => o.status === 'paid')).toMatchObject({ transactionId: expect.any(String) });
    });

    it("verifies the sandbox's webhooks by the sandbox's clock: an abandoned checkout's expiry reaches its handler", async () => {
      const { origin } = running();
      if (!sandboxOrigin) throw new Error('the hosted checkout test did not find the sandbox');
      const order = orders.add(`expired-${name.replace(/\W+/g, '-')}`, 1500);
      expect((await postJson(`${origin}/payments/checkout`, { orderId: order.id })).status).toBe(201);
      // Past the session's 30 minutes, and the webhook's 5-minute window on any other clock.
      expect((await postJson(`${sandboxOrigin}/sandbox/clock/advance`, { ms: 31 * 60_000 })).status).toBe(200);
      const handled = await orders.waitFor(order.id, (o) => o.status !== 'paid');
      expect(handled.changes).toEqual([expect.stringMatching(/^(failed|reopened)$/)]);
    });

    it('shuts down as its README says: the app and its sandbox stop listening', async () => {
      const { origin } = running();
      if (!sandboxOrigin) throw new Error('the hosted checkout test did not find the sandbox');
      await running().stop();
      app = undefined;
      await closed(origin);
      await closed(sandboxOrigin);
    });
  });
}

/**
 * Starts a README's `## Quick start` block by importing it, as written, with
 * `PORT` set: the block listens at once and shuts down on `SIGTERM`.
 */
export function importedQuickStart(readme: string): (port: number) => Promise<RunningQuickStart> {
  return async (port) => {
    process.env.PORT = String(port);
    await import(blockFile(readme, 'Quick start'));
    return { origin: `http://127.0.0.1:${port}`, stop: () => void process.emit('SIGTERM', 'SIGTERM') };
  };
}
