import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxService } from '../../../tools/sandbox-service';
import type { RunningWorker } from '../../../tools/workerd';
import { startStoresWorker } from './support/workerd';

/** What the Worker reports of one order: handler runs, committed D1 effects, object effects, the current attempt. */
interface OrderReport {
  runs: number;
  paid: string[];
  objectEffects: Record<string, unknown>[];
  attempt: { sessionId?: string; checkoutUrl?: string } | null;
}

// The proof on workerd: routes made afresh for every request on durableObjectStores(), the sandbox on Node as
// the service, judged by the sandbox's records and by what the Worker committed in D1 and in its objects.
describe('routes made per request on durableObjectStores(), in workerd, against the sandbox', () => {
  let sandbox: Sandbox;
  let worker: RunningWorker;

  beforeAll(async () => {
    // Quick retries: a delivery answered 500 (the handler threw) is sent again at once.
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [100, 200, 400] });
    const service = sandboxService(sandbox);
    worker = await startStoresWorker('support/routes-worker.ts', { SERVICE: service });
  });
  afterAll(async () => {
    await worker?.dispose();
    await sandbox?.close();
  });

  const at = (path: string) => new URL(path, worker.url);
  const pay = (orderId: string, mount = '/payments') =>
    fetch(at(`${mount}/wallet/pay`), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, token: sandbox.mintWalletToken() }),
    });
  const reportOf = async (order: string) => (await (await fetch(at(`/test/order?order=${order}`))).json()) as OrderReport;
  const deliveriesOf = (order: string) => sandbox.deliveries().filter((d) => d.payload['referenceOrderId'] === order);
  const chargesOf = (order: string) => sandbox.charges().filter((c) => c.referenceOrderId === order);

  it('one signed webhook delivered three times runs its handler once; a paid order refuses a second wallet payment (409)', async () => {
    const order = 'thrice-1';
    expect((await pay(order)).status).toBe(200);
    await sandbox.waitForDeliveries();
    const [first] = deliveriesOf(order);
    expect(first?.state).toBe('delivered');
    for (const resent of [await sandbox.resend(first!.deliveryId), await sandbox.resend(first!.deliveryId)]) {
      expect(resent.attempts.at(-1)?.status).toBe(200);
    }
    expect(deliveriesOf(order)).toHaveLength(3);
    const report = await reportOf(order);
    expect(report.runs).toBe(1);
    expect(report.paid).toEqual([chargesOf(order)[0]?.transactionId]);

    // The handler's one effect marked the order paid in D1, where resolveOrder reads it.
    const second = await pay(order);
    expect({ status: second.status, body: await second.json() }).toMatchObject({ status: 409, body: { error: { code: 'ORDER_NOT_PAYABLE' } } });
    expect(chargesOf(order)).toHaveLength(1);
  });

  it('20 concurrent checkouts of one order make one checkout session', async () => {
    const order = 'concurrent-1';
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(at('/payments/checkout'), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ orderId: order }) }),
      ),
    );
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as { checkoutUrl?: string }[];
    const urls = new Set(bodies.flatMap((b) => (b.checkoutUrl === undefined ? [] : [b.checkoutUrl])));
    // Each answer is the one session (reused) or 409 while another request held the order.
    expect(answers.map((a) => a.status).filter((s) => s !== 201 && s !== 409)).toEqual([]);
    expect(urls.size).toBe(1);
    expect((await reportOf(order)).attempt?.checkoutUrl).toBe([...urls][0]);
  });

  it.each([
    ['throws-1', 'a handler that throws after writing is rolled back, then its retry takes effect once, in D1 and in the object'],
    // The first run's D1 batch stands; the retry's fails on the D1 mark, rolling back its INSERT, and marks the object.
    ['object-fails-1', "D1 committed but the event's object could not be marked: the retry finds the D1 mark, writes nothing more to D1, and marks the object"],
  ])('%s: %s', async (order) => {
    expect((await pay(order)).status).toBe(200);
    await sandbox.waitForDeliveries();
    const [delivery] = deliveriesOf(order);
    expect(delivery?.attempts.map((a) => a.status)).toEqual([500, 200]);
    const report = await reportOf(order);
    expect(report.runs).toBe(2);
    expect(report.paid).toEqual([chargesOf(order)[0]?.transactionId]);
    expect(report.objectEffects).toEqual([{ receipt: { order, transactionId: chargesOf(order)[0]?.transactionId, run: 2 } }]);
    // Handled: a later delivery of the event runs nothing.
    await sandbox.resend(delivery!.deliveryId);
    expect((await reportOf(order)).runs).toBe(2);
  });

  it("a reset of the event's Durable Object mid-handler ends with one effect, in D1 and in the object", async () => {
    const order = 'reset-1';
    expect((await pay(order)).status).toBe(200);
    await sandbox.waitForDeliveries();
    const [first] = deliveriesOf(order);
    expect(first?.attempts.at(-1)?.status).toBe(200);
    await sandbox.resend(first!.deliveryId);
    const log = (await (await fetch(at('/test/log'))).json()) as string[];
    expect(log.filter((line) => line.startsWith('reset of event:'))).toEqual([expect.stringContaining('aborted: Error: reset by the test')]);
    const report = await reportOf(order);
    expect(report.runs).toBe(1);
    expect(report.paid).toEqual([chargesOf(order)[0]?.transactionId]);
    expect(report.objectEffects).toEqual([{ receipt: { order, transactionId: chargesOf(order)[0]?.transactionId, run: 1 } }]);
  });

  it("a reset of the event's Durable Object right after it committed the mark, before its answer, ends with one effect: the retried commit finds the mark", async () => {
    const order = 'commit-reset-1';
    expect((await pay(order)).status).toBe(200);
    await sandbox.waitForDeliveries();
    const [first] = deliveriesOf(order);
    expect(first?.attempts.map((a) => a.status)).toEqual([200]);
    await sandbox.resend(first!.deliveryId);
    const log = (await (await fetch(at('/test/log'))).json()) as string[];
    expect(log.filter((line) => line.startsWith('reset after the commit'))).toEqual(['reset after the commit: committed']);
    const report = await reportOf(order);
    expect(report.runs).toBe(1);
    expect(report.paid).toEqual([chargesOf(order)[0]?.transactionId]);
    expect(report.objectEffects).toEqual([{ receipt: { order, transactionId: chargesOf(order)[0]?.transactionId, run: 1 } }]);
  });

  it('the routes log no in-memory warning with these stores; the same routes on memory stores do', async () => {
    const isolatedWarning = (log: string[]) => log.filter((line) => line.includes('in-memory stores protect nothing across requests'));
    const before = (await (await fetch(at('/test/log'))).json()) as string[];
    expect(isolatedWarning(before)).toEqual([]);
    await fetch(at('/memory/payments/wallet/config?orderId=memory-1'));
    const after = (await (await fetch(at('/test/log'))).json()) as string[];
    expect(isolatedWarning(after)).toHaveLength(1);
  });

  it('the control: the same routes on memory stores, made per request, run the handler of a webhook delivered three times three times', async () => {
    const order = 'memory-thrice-1';
    expect((await pay(order, '/memory/payments')).status).toBe(200);
    await sandbox.waitForDeliveries();
    const [first] = deliveriesOf(order);
    await sandbox.resend(first!.deliveryId);
    await sandbox.resend(first!.deliveryId);
    expect((await reportOf(order)).runs).toBe(3);
  });
});
