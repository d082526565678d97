import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type Sandbox, type SandboxOptions } from '@paymount/sandbox';
import { afterEach } from 'vitest';
import { createNodeMiddleware } from '../../src/index';
import type { MerchantOrder, PaymentEvent, PaymentRoutes, PaymentRoutesOptions } from '../../src/index';

/** The client's wait for each attempt: long enough that an answer the service does not hold never races it on a loaded machine. */
export const ATTEMPT_TIMEOUT_MS = 2_000;
/** How long a test holds an answer (a `delay` fault) or a request (a late proxy): at least 2 s past the client giving up. */
export const HELD_ANSWER_MS = ATTEMPT_TIMEOUT_MS + 2_000;

export interface Answer {
  status: number;
  retryAfter: string | null;
  json: Record<string, unknown>;
}

/** A merchant app over real HTTP (plain node:http) with the routes at /payments, paying through a real sandbox. */
export interface OrderApp {
  sandbox: Sandbox;
  paymentRoutes: PaymentRoutes;
  /** Where the routes are mounted. */
  routesUrl: string;
  /** Every event a handler ran to success for, in order. */
  events: PaymentEvent[];
  /** Every log line, serialised. */
  logLines: string[];
  /** A new server-side order of `orderAmount` (12.50 by default); its id is also its referenceOrderId. */
  order(overrides?: Partial<MerchantOrder>): string;
  /** Changes a server-side order, as the merchant's back office would (a raised amount, say). */
  updateOrder(orderId: string, changes: Partial<MerchantOrder>): void;
  checkout(orderId: string): Promise<Answer>;
  pay(orderId: string, token?: string): Promise<Answer>;
  status(orderId: string): Promise<Answer>;
  /** The sandbox ledger's successful charges of one order. */
  charges(referenceOrderId: string): number;
  close(): Promise<void>;
}

export interface OrderAppSetup {
  /** Option overrides, given the sandbox and the app's routes URL (known once it listens). */
  options?: (sandbox: Sandbox, routesUrl: () => string) => Partial<PaymentRoutesOptions>;
  /** Runs before the recording handler: throw to fail an event, await to hold it. */
  beforeEvent?: (event: PaymentEvent) => void | Promise<void>;
  /** Webhook retry delays of the sandbox; default 20 and 40 ms. */
  webhookRetryDelaysMs?: SandboxOptions['webhookRetryDelaysMs'];
}

let orders = 0;

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), json: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

export async function startOrderApp(setup: OrderAppSetup = {}): Promise<OrderApp> {
  const sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: setup.webhookRetryDelaysMs ?? [20, 40] });
  const known = new Map<string, MerchantOrder>();
  const events: PaymentEvent[] = [];
  const logLines: string[] = [];
  const write = (level: string) => (obj: object | string, msg?: string) => void logLines.push(`${level} ${JSON.stringify(obj)} ${msg ?? ''}`);
  let routesUrl = '';
  const middleware = createNodeMiddleware(
    {
      client: { ...sandbox.clientOptions(), retry: { maxAttempts: 1 }, timeoutMs: ATTEMPT_TIMEOUT_MS },
      resolveOrder: (orderId) => known.get(orderId) ?? null,
      notifyUrl: () => `${routesUrl}/webhook`,
      wallet: { gatewayId: sandbox.gatewayId },
      webhook: { secret: sandbox.webhookSecret },
      clock: sandbox.clock,
      logger: { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') },
      on: {
        '*': async (event) => {
          await setup.beforeEvent?.(event);
          events.push(event);
        },
      },
      ...setup.options?.(sandbox, () => routesUrl),
    },
    { mountPath: '/payments' },
  );
  const server: Server = createServer(middleware);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  routesUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/payments`;
  const post = async (path: string, body: unknown) =>
    answerOf(await fetch(`${routesUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  return {
    sandbox,
    paymentRoutes: middleware.paymentRoutes,
    routesUrl,
    events,
    logLines,
    order(overrides = {}) {
      orders += 1;
      const id = `guard-${process.pid}-${orders}`;
      known.set(id, { referenceOrderId: id, amount: { orderAmount: 1250, priceCurrency: 'USD' }, description: 'An order', ...overrides });
      return id;
    },
    updateOrder(orderId, changes) {
      const order = known.get(orderId);
      if (order === undefined) throw new Error(`no order ${orderId}`);
      known.set(orderId, { ...order, ...changes });
    },
    checkout: (orderId) => post('/checkout', { orderId }),
    pay: (orderId, token = sandbox.mintWalletToken()) => post('/wallet/pay', { orderId, token }),
    status: async (orderId) => answerOf(await fetch(`${routesUrl}/status?orderId=${encodeURIComponent(orderId)}`)),
    charges: (referenceOrderId) =>
      sandbox.charges().filter((charge) => charge.referenceOrderId === referenceOrderId && charge.transactionStatus === 'S').length,
    async close() {
      server.closeAllConnections();
      server.close();
      await middleware.paymentRoutes.close();
      await sandbox.close();
    },
  };
}

/** The shopper pressing "Pay" on the sandbox's hosted page. */
export async function payHostedPage(checkoutUrl: string): Promise<number> {
  const response = await fetch(`${checkoutUrl}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'testCard=approve',
    redirect: 'manual',
  });
  await response.arrayBuffer();
  return response.status;
}

/** Starts order apps for one test file; each is closed after the test that started it. */
export function orderAppsClosedAfterEach(): (setup?: OrderAppSetup) => Promise<OrderApp> {
  const apps: OrderApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((started) => started.close()));
  });
  return async (setup = {}) => {
    const started = await startOrderApp(setup);
    apps.push(started);
    return started;
  };
}

export interface Gate {
  opened: Promise<void>;
  open: () => void;
}

/** A gate a handler waits at until the test opens it. */
export function gate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * Setup for an app whose `payment.succeeded` handler waits: `reached` opens
 * once such an event is being handled, which then finishes when the test
 * opens `held` (the order's attempt is recorded settled only after that).
 */
export function holdSucceededEvents(): { setup: OrderAppSetup; reached: Gate; held: Gate } {
  const held = gate();
  const reached = gate();
  const setup: OrderAppSetup = {
    beforeEvent: async (event) => {
      if (event.type !== 'payment.succeeded') return;
      reached.open();
      await held.opened;
    },
  };
  return { setup, reached, held };
}
