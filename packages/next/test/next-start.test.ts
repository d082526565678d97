import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PaymentErrorCode } from '@paymount/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextStart, type NextStart } from './support/next-server';
import { startOrderService, type OrderService } from './support/order-service';
import { freePort, postJson } from '../../../tests/readmes/test/support/quick-start';
import {
  expectCurrenciesAsOnNode,
  expectFailedUnsent,
  expectPartialRefund,
  expectQueryAsRecorded,
  PARTIAL_REFUND_CENTS,
  paymentRecords,
  type CurrencyReport,
} from '../../../tests/runtimes/support/flow-checks';
import { hostedPaymentMarksPaid, walletPaymentMarksPaid } from './support/payment-flows';
import { sandboxRecords } from './support/sandbox-records';
import { appDir, EDGE_ADMIN } from './support/test-app';

/** Resolves once `text` is in the server's output, or fails after `timeoutMs`. */
async function logged(server: NextStart, text: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!server.output().includes(text)) {
    if (Date.now() > deadline) throw new Error(`the server never logged "${text}":\n${server.output()}`);
    await sleep(25);
  }
  return server.output();
}

// The README's quick start, built by `next build` without a payment setting in its environment (see global-setup.ts).
describe('the README quick start under next start with PAYMOUNT_SANDBOX=1', () => {
  let server: NextStart | undefined;
  let orderService: OrderService | undefined;
  let sandboxOrigin: string | undefined;
  const running = () => {
    if (!server || !orderService) throw new Error('next start did not start');
    return { server, orders: orderService.orders, origin: server.origin };
  };
  const sandbox = () => {
    if (!sandboxOrigin) throw new Error('the hosted checkout test did not find the sandbox');
    return sandboxOrigin;
  };

  beforeAll(async () => {
    orderService = await startOrderService();
    server = await nextStart({ PAYMOUNT_SANDBOX: '1', TEST_ORDERS_URL: orderService.url });
  });

  afterAll(async () => {
    await server?.stop();
    await orderService?.close();
  });

  it("starts the embedded sandbox from instrumentation.ts's register() and says so in the log", async () => {
    const output = await logged(running().server, 'payments go to the embedded sandbox at http://127.0.0.1:');
    expect(output).toContain('no real money moves');
  });

  it('on the Node runtime: takes a hosted checkout paid on the sandbox page, and its webhook reaches the handler', async () => {
    const { origin, orders } = running();
    sandboxOrigin = await hostedPaymentMarksPaid(`${origin}/payments`, orders, 'node-hosted-1', origin);
  });

  it('on the Node runtime: takes a wallet payment, and its webhook reaches the handler', async () => {
    const { origin, orders } = running();
    await walletPaymentMarksPaid(`${origin}/payments`, orders, 'node-wallet-1', sandbox());
  });

  it('answers a path below the mount that is no route, and an unknown order, with a JSON 404', async () => {
    const { origin } = running();
    expect(await postJson(`${origin}/payments/nowhere`, {})).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    expect(await postJson(`${origin}/payments/checkout`, { orderId: 'nobody-ordered-this' })).toMatchObject({
      status: 404,
      body: { error: { code: 'ORDER_NOT_FOUND' } },
    });
  });

  // test/next-app/app/edge/payments/[...paymount]/route.js: the README's route with runtime = 'edge', mounted at /edge/payments.
  describe('the same route on the edge runtime', () => {
    it('on the edge runtime: takes a hosted checkout paid on the sandbox page, and its webhook reaches the handler', async () => {
      const { origin, orders } = running();
      await hostedPaymentMarksPaid(`${origin}/edge/payments`, orders, 'edge-hosted-1', origin);
    });

    it('on the edge runtime: takes a wallet payment, and its webhook reaches the handler', async () => {
      const { origin, orders } = running();
      await walletPaymentMarksPaid(`${origin}/edge/payments`, orders, 'edge-wallet-1', sandbox());
    });

    it("is built as an edge function, with core's web build, and says once that its memory stores are per isolate", async () => {
      const manifest = JSON.parse(readFileSync(join(appDir, '.next', 'server', 'middleware-manifest.json'), 'utf8')) as { functions: object };
      // Beside it, the edge conformance route (conformance-edge.test.ts), and the README's admin routes and the runtime
      // checks on the edge runtime (below); every other route runs on Node.
      expect(Object.keys(manifest.functions).sort()).toEqual([
        '/conformance-edge/[...paymount]/route',
        `/${EDGE_ADMIN}/refund/route`,
        `/${EDGE_ADMIN}/transaction/route`,
        '/edge/payments/[...paymount]/route',
        '/edge/runtime-checks/route',
      ]);
      const output = await logged(running().server, 'in-memory stores protect nothing across requests');
      expect(output.split('in-memory stores protect nothing across requests')).toHaveLength(2);
    });
  });

  // The flows the other runtimes run (tests/runtimes), held to their checks against the sandbox's records: the README's
  // admin routes, at app/admin and again with runtime = 'edge' at app/edge-admin, and the flows' own currency and
  // unsent-payment steps (test/next-app/runtime-checks.js). After the edge runtime's warning test above: each edge admin
  // route is an edge function of its own, which says so once too.
  let onNode: CurrencyReport | undefined;
  describe.each([
    { runtime: 'Node', admin: '/admin', checks: '/runtime-checks', prefix: 'node' },
    { runtime: 'edge', admin: `/${EDGE_ADMIN}`, checks: '/edge/runtime-checks', prefix: 'edge' },
  ])('the other runtimes\' flows on the $runtime runtime', ({ runtime, admin, checks, prefix }) => {
    // Paid through this runtime's payment route above.
    const paidOrder = `${prefix}-wallet-1`;
    const paymentId = async () => (await running().orders.find(paidOrder))?.transactionId;
    const walletRecords = async () => {
      const { charges, refunds } = await sandboxRecords(sandbox(), paidOrder);
      return paymentRecords(charges, refunds);
    };
    let refund: Record<string, unknown> | undefined;
    let checked: Promise<Record<string, Record<string, unknown>>> | undefined;
    /** The app's runtime checks, run once per runtime: their tests read one answer. */
    const runtimeChecks = () =>
      (checked ??= (async () => {
        const token = async () => String((await postJson(`${sandbox()}/sandbox/wallet-token`, {})).body['token']);
        const answer = await postJson(`${running().origin}${checks}`, {
          orders: { currency: `${prefix}-currency-1`, refused: `${prefix}-refused-1` },
          tokens: { currency: await token(), refused: await token() },
          // Nothing listens there: the port was free a moment ago.
          refusedUrl: `http://127.0.0.1:${await freePort()}`,
        });
        expect(answer.status).toBe(200);
        return answer.body as Record<string, Record<string, unknown>>;
      })());

    it(`on the ${runtime} runtime: the README's refund route gives back part of the wallet payment, and the sandbox records it`, async () => {
      const answer = await postJson(`${running().origin}${admin}/refund`, { transactionId: await paymentId(), cents: PARTIAL_REFUND_CENTS });
      expect(answer.status).toBe(200);
      refund = answer.body;
      expectPartialRefund(answer.body, await walletRecords());
      // The route names the webhook route as the refund's notifyUrl: the refund webhook reaches the README's refund.succeeded handler.
      const refunded = await running().orders.waitFor(paidOrder, (order) => order.refunds.some((each) => each.transactionId === answer.body['transactionId']), 20_000);
      expect(refunded.refunds).toContainEqual({ transactionId: answer.body['transactionId'], cents: PARTIAL_REFUND_CENTS });
    });

    it(`on the ${runtime} runtime: the README's lookup route answers the payment and its refund as the sandbox holds them`, async () => {
      const lookup = async (transactionId: unknown) => {
        const res = await fetch(`${running().origin}${admin}/transaction?transactionId=${encodeURIComponent(String(transactionId))}`);
        expect(res.status).toBe(200);
        return (await res.json()) as Record<string, unknown>;
      };
      const payment = await lookup(await paymentId());
      const refunded = await lookup(refund?.transactionId);
      expectQueryAsRecorded(
        {
          payment: { status: payment['status'], transactionId: payment['transactionId'], referenceOrderId: payment['referenceOrderId'] },
          refund: { status: refunded['status'], transactionId: refunded['transactionId'] },
        },
        await walletRecords(),
        paidOrder,
      );
    });

    it(`on the ${runtime} runtime: XAU, XXX and DEM are refused before sending, exactly as on Node, and exponents come from the same table`, async () => {
      const { currency } = await runtimeChecks();
      // The Node runtime's answer, Node's own, is the reference the edge runtime's is held to.
      if (runtime === 'Node') onNode = currency as unknown as CurrencyReport;
      if (onNode === undefined) throw new Error("the Node runtime's currency test did not run");
      expectCurrenciesAsOnNode(currency!, onNode, (await sandboxRecords(sandbox(), `${prefix}-currency-1`)).charges);
    });

    it(`on the ${runtime} runtime: a payment to a port that refuses connections fails, known unsent (never pending), and charges nothing`, async () => {
      const { refused } = await runtimeChecks();
      expectFailedUnsent(refused!, (await sandboxRecords(sandbox(), `${prefix}-refused-1`)).charges, PaymentErrorCode.NETWORK_ERROR);
    });
  });

  it('answers 500 and logs the fix when the handlers are exported from a route without a catch-all segment', async () => {
    const { origin, server } = running();
    const res = await postJson(`${origin}/misplaced`, { orderId: 'node-hosted-1' });
    expect(res).toEqual({ status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred.' } } });
    const output = await logged(server, 'not on a catch-all route');
    expect(output).toContain('app/payments/[...paymount]/route.ts');
  });

  // Last: it moves the sandbox's clock, which only the Node runtime's routes read.
  it("verifies the sandbox's webhooks by the sandbox's clock on the Node runtime: an abandoned checkout's expiry reaches its handler", async () => {
    const { origin, orders } = running();
    orders.add('node-expired-1', 1500);
    expect((await postJson(`${origin}/payments/checkout`, { orderId: 'node-expired-1' })).status).toBe(201);
    // Past the session's 30 minutes, and the webhook's 5-minute window on any other clock.
    expect((await postJson(`${sandbox()}/sandbox/clock/advance`, { ms: 31 * 60_000 })).status).toBe(200);
    expect(await orders.waitFor('node-expired-1', (o) => o.status === 'failed')).toMatchObject({ changes: ['failed'] });
  });
});

describe('next start in production with no payment settings', () => {
  let server: NextStart | undefined;

  beforeAll(async () => {
    server = await nextStart({});
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('starts no sandbox, answers 500 without detail, and logs which variables are missing; the next request tries again', async () => {
    const running = server!;
    for (let attempt = 1; attempt <= 2; attempt++) {
      const res = await postJson(`${running.origin}/payments/checkout`, { orderId: 'any' });
      expect(res).toEqual({ status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred.' } } });
    }
    const output = await logged(running, 'PAYMENT_WEBHOOK_SECRET');
    const failures = output.split('\n').filter((line) => line.includes('payment route options could not be made'));
    expect(failures).toHaveLength(2);
    for (const name of ['PAYMENT_API_KEY', 'PAYMENT_BASE_URL', 'PAYMENT_APP_ID', 'PAYMENT_MERCHANT_ID', 'PAYMENT_GATEWAY_ID']) {
      expect(failures[0]).toContain(name);
    }
    expect(output).not.toContain('payments go to the embedded sandbox');
  });
});
