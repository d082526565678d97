// A merchant's Worker as the routes proof runs it: the payment routes made afresh for every request (as a
// fresh isolate makes them) on durableObjectStores(), with a payment.succeeded handler whose effects commit
// with the event's mark, in D1 and in the event's object. Its own reads (`/test/...`) report what happened.
import { createFetchHandler, type FetchHandler, type PaymentRoutesOptions } from '@paymount/core';
import { durableObjectStores, withEventCommit, type D1Database, type PaymountStateNamespace } from '../../src/index';
import { PaymountState as StoresState } from '../../src/paymount-state';
import type { SandboxService } from '../../../../tools/sandbox-service';

/** The class as bound here: PaymountState, plus the test's ways to reset an object mid-handler and to fail its commits. */
export class PaymountState extends StoresState {
  private commitsToFail = 0;
  private resetAfterCommit = false;

  /** Aborts this object, as a deploy or an overloaded machine does: its next call starts a new instance on the stored state. */
  resetForTest(): void {
    (this.ctx as unknown as { abort(reason?: string): void }).abort('reset by the test');
  }

  /** Fails this object's next `count` commits of an event's mark, as an object that cannot be reached would. */
  failCommitsForTest(count: number): void {
    this.commitsToFail = count;
  }

  /** Resets this object right after its next commit of an event's mark, before its answer: the mark stands, the Worker sees the reset. */
  resetAfterCommitForTest(): void {
    this.resetAfterCommit = true;
  }

  override eventCommit(...args: Parameters<StoresState['eventCommit']>): ReturnType<StoresState['eventCommit']> {
    if (this.commitsToFail > 0) {
      this.commitsToFail -= 1;
      return Promise.reject(new Error('the commit failed for the test'));
    }
    if (this.resetAfterCommit) {
      return super.eventCommit(...args).then((outcome) => {
        log.push(`reset after the commit: ${outcome}`);
        this.resetForTest();
        return outcome;
      });
    }
    return super.eventCommit(...args);
  }
}

interface Env {
  PAYMOUNT_STATE: PaymountStateNamespace;
  DB: D1Database;
  SERVICE: SandboxService;
}

/** What the routes logged in this isolate, for the test to read. */
const log: string[] = [];
const logger = {
  debug: () => {},
  info: () => {},
  warn: (fields: unknown, message?: string) => void log.push(`warn: ${message ?? JSON.stringify(fields)}`),
  error: (fields: unknown, message?: string) => void log.push(`error: ${message ?? JSON.stringify(fields)}`),
};

const TABLES = [
  // Every run of the handler, written outside the commit: how many times it ran.
  'CREATE TABLE IF NOT EXISTS handler_runs (order_id TEXT NOT NULL, event_key TEXT NOT NULL)',
  // The handler's effect, committed with the event's mark.
  'CREATE TABLE IF NOT EXISTS paid_orders (order_id TEXT NOT NULL, transaction_id TEXT NOT NULL)',
];

const recordRun = (env: Env, order: string, eventKey: string) =>
  env.DB.prepare('INSERT INTO handler_runs (order_id, event_key) VALUES (?, ?)').bind(order, eventKey).run();

function routesOptions(env: Env, origin: string, stores: 'durable-objects' | 'memory'): PaymentRoutesOptions {
  const { orders, idempotency } = durableObjectStores(env.PAYMOUNT_STATE, { d1: env.DB });
  return {
    client: { apiKey: env.SERVICE.apiKey, baseUrl: env.SERVICE.baseUrl, appId: env.SERVICE.appId, merchantId: env.SERVICE.merchantId, localDevelopment: true },
    checkCredentials: false,
    // The shop's order table is D1: an order the handler marked paid is no longer payable.
    resolveOrder: async (orderId) => ({
      referenceOrderId: orderId,
      amount: { orderAmount: 2500, priceCurrency: 'USD' },
      description: 'A teapot',
      payable: (await env.DB.prepare('SELECT 1 AS paid FROM paid_orders WHERE order_id = ?').bind(orderId).all()).results.length === 0,
    }),
    notifyUrl: () => `${origin}${stores === 'memory' ? '/memory' : ''}/payments/webhook`,
    merchantReturnUrl: 'http://127.0.0.1/shop/thanks',
    wallet: { gatewayId: env.SERVICE.gatewayId, merchantName: 'Worker Shop' },
    webhook: { secret: env.SERVICE.webhookSecret },
    ...(stores === 'durable-objects' ? { orders: { store: orders }, store: idempotency } : {}),
    logger,
    on: stores === 'memory' ? { 'payment.succeeded': (event) => recordRun(env, event.referenceOrderId ?? '', 'memory') } : {
      'payment.succeeded': withEventCommit(async (event, { db }) => {
        const order = event.referenceOrderId ?? '';
        await recordRun(env, order, db.eventKey);
        const { results } = await env.DB.prepare('SELECT COUNT(*) AS runs FROM handler_runs WHERE order_id = ?').bind(order).all<{ runs: number }>();
        const run = results[0]?.runs ?? 0;
        db.d1(env.DB.prepare('INSERT INTO paid_orders (order_id, transaction_id) VALUES (?, ?)').bind(order, event.transactionId ?? ''));
        db.put('receipt', { order, transactionId: event.transactionId, run });
        if (order.startsWith('throws-') && run === 1) throw new Error('the handler failed after writing');
        if (order.startsWith('object-fails-') && run === 1) {
          const stub = env.PAYMOUNT_STATE.get(env.PAYMOUNT_STATE.idFromName(`event:${db.eventKey}`) as never) as { failCommitsForTest(count: number): Promise<void> };
          // Every try of the object's mark fails, after the D1 batch (statements and D1 mark) committed.
          await stub.failCommitsForTest(3);
        }
        if (order.startsWith('commit-reset-') && run === 1) {
          const stub = env.PAYMOUNT_STATE.get(env.PAYMOUNT_STATE.idFromName(`event:${db.eventKey}`) as never) as { resetAfterCommitForTest(): Promise<void> };
          await stub.resetAfterCommitForTest();
        }
        if (order.startsWith('reset-') && run === 1) {
          const stub = env.PAYMOUNT_STATE.get(env.PAYMOUNT_STATE.idFromName(`event:${db.eventKey}`) as never) as { resetForTest(): Promise<void> };
          // The aborted object's caller gets the abort as an error; the handler carries on, as after any reset.
          const reset = await stub.resetForTest().then(() => 'answered', (error: unknown) => `aborted: ${String(error)}`);
          log.push(`reset of event:${db.eventKey}: ${reset}`);
        }
      }),
    },
  };
}

async function report(env: Env, url: URL): Promise<Response> {
  if (url.pathname === '/test/log') return Response.json(log);
  const order = url.searchParams.get('order') ?? '';
  const runs = await env.DB.prepare('SELECT event_key AS key FROM handler_runs WHERE order_id = ?').bind(order).all<{ key: string }>();
  const paid = await env.DB.prepare('SELECT transaction_id AS id FROM paid_orders WHERE order_id = ?').bind(order).all<{ id: string }>();
  const stores = durableObjectStores(env.PAYMOUNT_STATE);
  const keys = [...new Set(runs.results.map((r) => r.key))];
  return Response.json({
    runs: runs.results.length,
    paid: paid.results.map((r) => r.id),
    objectEffects: await Promise.all(keys.map((key) => stores.idempotency.effectsOf(key))),
    attempt: (await stores.orders.get(order)) ?? null,
  });
}

let tablesMade: Promise<unknown> | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    tablesMade ??= env.DB.batch(TABLES.map((sql) => env.DB.prepare(sql)));
    await tablesMade;
    const url = new URL(request.url);
    if (url.pathname.startsWith('/test/')) return report(env, url);
    // Routes made per request, as a fresh isolate makes them; `/memory/...` are the same routes on memory stores.
    const memory = url.pathname.startsWith('/memory/');
    const routes: FetchHandler = createFetchHandler(routesOptions(env, url.origin, memory ? 'memory' : 'durable-objects'), {
      mountPath: memory ? '/memory/payments' : '/payments',
    });
    return routes(request);
  },
};
