import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orders, type Order } from '../../context/orders';
import { blockFile, readmeBlock } from '../../src/workspace';

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

/**
 * A shopper's wallet payment: the wallet request, a token from the sandbox's test wallet, `POST /wallet/pay`.
 * `failed`: the card's issuer asks for additional 3DS, which the sandbox declines.
 */
export async function payWithWallet(paymentsUrl: string, orderId: string, sandboxOrigin: string, outcome: 'succeeded' | 'failed' = 'succeeded'): Promise<void> {
  const config = await fetch(`${paymentsUrl}/wallet/config?orderId=${orderId}`);
  expect(config.status).toBe(200);
  const minted = await postJson(`${sandboxOrigin}/sandbox/wallet-token`, outcome === 'failed' ? { additional3dsRequired: true } : {});
  expect(minted.status).toBe(201);
  const paid = await postJson(`${paymentsUrl}/wallet/pay`, { orderId, token: minted.body.token });
  expect(paid).toMatchObject({ status: 200, body: { status: outcome, referenceOrderId: orderId } });
}

export interface RunningQuickStart {
  /** `http://127.0.0.1:<port>`, where the README app listens. */
  origin: string;
  /** Shuts the app down the way its README does. */
  stop(): void | Promise<void>;
  /** The README's back-office refund of `cents` of the order's payment; resolves the refund's status as it answers it. */
  refund?(order: Order, cents: number): Promise<unknown>;
}

/** The READMEs whose quick start has an order page (merchantReturnUrl lands there). */
const ORDER_PAGES = new Set(['express', 'fastify', 'hono', 'koa', 'nestjs on express', 'nestjs on fastify', 'nestjs guide on express']);
/** The READMEs whose "Testing your handlers" block posts to the quick start's app over HTTP. */
const TESTING_BLOCKS = new Set(['express', 'fastify', 'hono']);
/** The READMEs with a back-office refund (their quick start's app gives it as `refund`). */
const REFUNDS = new Set(['express', 'hono', 'koa', 'nestjs on express', 'nestjs on fastify', 'nestjs guide on express']);
/** What the refund gives back: the Koa README's route refunds 500 cents, whatever it is asked. */
const REFUND_CENTS = 500;

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

    it.runIf(REFUNDS.has(name))("its back office's refund names the webhook URL: the refund webhook reaches the quick start's refund.succeeded handler", async () => {
      const app = running();
      if (!app.refund) throw new Error(`the ${name} quick start was started without its README's refund`);
      if (!sandboxOrigin) throw new Error('the hosted checkout test did not find the sandbox');
      const order = orders.add(`refund-${name.replace(/\W+/g, '-')}`, 1999);
      await payWithWallet(`${app.origin}/payments`, order.id, sandboxOrigin);
      const paid = await orders.waitFor(order.id, (o) => o.status === 'paid');
      expect(await app.refund(paid, REFUND_CENTS)).toBe('succeeded');
      // Sent only to a refund's notifyUrl: the routes' notifyUrl is not used for refunds.
      const refunded = await orders.waitFor(order.id, (o) => o.refunds.length > 0);
      expect(refunded).toMatchObject({ status: 'refunded', refunds: [{ transactionId: expect.any(String), cents: REFUND_CENTS }] });
      expect(refunded.refunds[0]?.transactionId).not.toBe(paid.transactionId);
    });

    it("verifies the sandbox's webhooks by the sandbox's clock: an abandoned checkout's expiry reaches its handler, and the order is paid after it", async () => {
      const { origin } = running();
      if (!sandboxOrigin) throw new Error('the hosted checkout test did not find the sandbox');
      const order = orders.add(`expired-${name.replace(/\W+/g, '-')}`, 1500);
      expect((await postJson(`${origin}/payments/checkout`, { orderId: order.id })).status).toBe(201);
      // Past the session's 30 minutes, and the webhook's 5-minute window on any other clock.
      expect((await postJson(`${sandboxOrigin}/sandbox/clock/advance`, { ms: 31 * 60_000 })).status).toBe(200);
      const handled = await orders.waitFor(order.id, (o) => o.status !== 'paid');
      expect(handled.changes).toEqual(['failed']);
      // The shopper comes back: a new session, paid on its page.
      await payOnHostedPage(`${origin}/payments`, order.id, origin);
      expect(await orders.waitFor(order.id, (o) => o.status === 'paid')).toMatchObject({ changes: ['failed', 'paid'] });
    });

    it('a declined wallet payment reaches its handler, and the shopper pays the order after it', async () => {
      const { origin } = running();
      if (!sandboxOrigin) throw new Error('the hosted checkout test did not find the sandbox');
      const order = orders.add(`declined-${name.replace(/\W+/g, '-')}`, 1750);
      await payWithWallet(`${origin}/payments`, order.id, sandboxOrigin, 'failed');
      expect(await orders.waitFor(order.id, (o) => o.status === 'failed')).toMatchObject({ changes: ['failed'] });
      await payWithWallet(`${origin}/payments`, order.id, sandboxOrigin);
      expect(await orders.waitFor(order.id, (o) => o.status === 'paid')).toMatchObject({ changes: ['failed', 'paid'] });
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

/** Where a reader's own routes go in the Express, Koa and Hono quick starts: before the app listens. */
const LISTENS = /^const server = /m;

/**
 * The README's `## Quick start` block, with its back office's refund route (the block under
 * `refundSection`, without the prelude that stands for the quick start) added where a reader adds
 * routes of their own: before the app listens. Written beside the quick start's file, so it
 * imports the same modules (`./orders.js`).
 */
function quickStartWithRefunds(readme: string, refundSection: string): string {
  const quickStart = readmeBlock(readme, 'Quick start');
  const refunds = readmeBlock(readme, refundSection);
  const at = LISTENS.exec(quickStart.code)?.index;
  if (at === undefined) throw new Error(`${readme} README: the quick start has no \`const server = \` line to add the refund route before`);
  const file = join(dirname(quickStart.file), 'with-refunds.ts');
  writeFileSync(file, `${quickStart.code.slice(0, at)}${refunds.code}\n\n${quickStart.code.slice(at)}\n`);
  return file;
}

/**
 * Starts a README's `## Quick start` block by importing it, as written, with
 * `PORT` set: the block listens at once and shuts down on `SIGTERM`. With
 * `refundSection`, the README's refund route is added to it (quickStartWithRefunds) and
 * asked over HTTP, as a back office would: `POST /admin/orders/:id/refund` `{ cents }`.
 */
export function importedQuickStart(readme: string, refundSection?: string): (port: number) => Promise<RunningQuickStart> {
  return async (port) => {
    process.env.PORT = String(port);
    await import(refundSection ? quickStartWithRefunds(readme, refundSection) : blockFile(readme, 'Quick start'));
    const origin = `http://127.0.0.1:${port}`;
    return {
      origin,
      stop: () => void process.emit('SIGTERM', 'SIGTERM'),
      ...(refundSection ? { refund: async (order: Order, cents: number) => (await postJson(`${origin}/admin/orders/${order.id}/refund`, { cents })).body.status } : {}),
    };
  };
}
