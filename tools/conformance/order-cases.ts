import { expect, it } from 'vitest';
import { recorder, type ConformanceContext } from './context';
import { freshOrderId, repriceOrder, UNKNOWN_ORDER_ID, UPSTREAM_DELAY_MS } from './fixtures';
import { postJson, send, type Exchange } from './http';

const SALE_PATH = '/v1/checkout/sale';
const CHECKOUT_PATH = '/v1/checkout/create-session';

const IN_PROGRESS = {
  error: { code: 'PAYMENT_IN_PROGRESS', message: 'A payment of this order is being processed; nothing was sent. Retry shortly.' },
};

/** One order, one charge: what every adapter answers around the per-order payment guard. */
export function orderCases(ctx: () => ConformanceContext): void {
  const { seen, token } = recorder(ctx);
  const pay = async (orderId: string, walletToken = token()) =>
    seen(await postJson(`${ctx().app.url}/wallet/pay`, { orderId, token: walletToken }));
  const checkout = async (orderId: string) => seen(await postJson(`${ctx().app.url}/checkout`, { orderId }));
  const status = async (orderId: string) => seen(await send(`${ctx().app.url}/status?orderId=${encodeURIComponent(orderId)}`));
  /** Successful charges of one order in the sandbox's ledger. */
  const charges = (referenceOrderId: string) =>
    ctx()
      .sandbox.charges()
      .filter((charge) => charge.referenceOrderId === referenceOrderId && charge.transactionStatus === 'S');
  const payHostedPage = (checkoutUrl: string) =>
    send(`${checkoutUrl}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'testCard=approve' });

  /** One payment went out; every other request was refused while it was in flight (or, arriving later, found the order paid). */
  const expectOnePaymentAndRefusals = (answers: Exchange[]) => {
    const sent = answers.filter((answer) => answer.status === 200 && !(answer.json as { alreadyPaid?: boolean }).alreadyPaid);
    expect(sent.map((answer) => answer.json)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.status).toBe(409);
      expect(answer.retryAfter).toBe('2');
      expect(answer.json).toEqual(IN_PROGRESS);
    }
  };

  it('concurrent wallet payments of one order with different tokens: one reaches the service, the others answer 409 PAYMENT_IN_PROGRESS', async () => {
    const orderId = freshOrderId();
    // The first payment is held at the service while the others arrive.
    ctx().sandbox.injectFault({ kind: 'delay', path: SALE_PATH, delayMs: 1_000 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => pay(orderId)));
    expectOnePaymentAndRefusals(answers);
    expect(charges(orderId)).toHaveLength(1);
  });

  it('a double click (the same token twice at once) charges once', async () => {
    const orderId = freshOrderId();
    const walletToken = token();
    ctx().sandbox.injectFault({ kind: 'delay', path: SALE_PATH, delayMs: 1_000 });
    const answers = await Promise.all([pay(orderId, walletToken), pay(orderId, walletToken)]);
    expectOnePaymentAndRefusals(answers);
    expect(charges(orderId)).toHaveLength(1);
  });

  it('a paid order paid again is answered as paid without a charge; a checkout for it answers 409 ORDER_ALREADY_PAID', async () => {
    const orderId = freshOrderId();
    const first = await pay(orderId);
    expect(first.json).toMatchObject({ status: 'succeeded' });
    const { transactionRequestId, transactionId } = first.json as { transactionRequestId: string; transactionId: string };
    const again = await pay(orderId);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ status: 'succeeded', referenceOrderId: orderId, transactionRequestId, transactionId, alreadyPaid: true });
    const hosted = await checkout(orderId);
    expect(hosted.status).toBe(409);
    expect(hosted.json).toEqual({ error: { code: 'ORDER_ALREADY_PAID', message: 'This order is already paid.' } });
    expect(charges(orderId)).toHaveLength(1);
  });

  it('two checkouts of one order (two tabs) get the same open session; paying both pages charges once', async () => {
    const orderId = freshOrderId();
    const [first, second] = [await checkout(orderId), await checkout(orderId)];
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    const url = (first.json as { checkoutUrl: string }).checkoutUrl;
    expect((second.json as { checkoutUrl: string }).checkoutUrl).toBe(url);
    expect([200, 303]).toContain((await payHostedPage(url)).status);
    expect((await payHostedPage((second.json as { checkoutUrl: string }).checkoutUrl)).status).toBe(409);
    expect(charges(orderId)).toHaveLength(1);
  });

  it("a wallet payment first expires the order's open hosted session, whose page then refuses to pay", async () => {
    const orderId = freshOrderId();
    const hosted = await checkout(orderId);
    const { checkoutUrl } = hosted.json as { checkoutUrl: string };
    const paid = await pay(orderId);
    expect(paid.json).toMatchObject({ status: 'succeeded', referenceOrderId: orderId });
    expect((await send(checkoutUrl)).status).toBe(410);
    expect((await payHostedPage(checkoutUrl)).status).toBe(410);
    expect(charges(orderId)).toHaveLength(1);
  });

  it('after a pending answer, paying again asks the service about the first payment: charged, so answered paid and not charged again', async () => {
    const orderId = freshOrderId();
    // The service charges, then holds its answer past the client's time-out.
    ctx().sandbox.injectFault({ kind: 'delay', path: SALE_PATH, delayMs: UPSTREAM_DELAY_MS });
    const pending = await pay(orderId);
    expect(pending.json).toMatchObject({ status: 'pending' });
    const again = await pay(orderId);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({
      status: 'succeeded',
      alreadyPaid: true,
      transactionRequestId: (pending.json as { transactionRequestId: string }).transactionRequestId,
    });
    expect(charges(orderId)).toHaveLength(1);
  });

  it('a checkout whose answer was lost is asked for again with the same transactionRequestId: the same session, not a second one', async () => {
    const orderId = freshOrderId();
    ctx().sandbox.injectFault({ kind: 'reset-after', path: CHECKOUT_PATH });
    expect((await checkout(orderId)).status).toBe(502);
    const again = await checkout(orderId);
    expect(again.status).toBe(201);
    const sessions = ctx()
      .sandbox.charges()
      .filter((charge) => charge.referenceOrderId === orderId);
    expect(sessions).toHaveLength(0);
    expect((await payHostedPage((again.json as { checkoutUrl: string }).checkoutUrl)).status).toBeLessThan(400);
    expect(charges(orderId)).toHaveLength(1);
  });

  it('a lost checkout answer, then a wallet payment: the lost session is named again and ended, the wallet pays; one charge', async () => {
    const orderId = freshOrderId();
    ctx().sandbox.injectFault({ kind: 'reset-after', path: CHECKOUT_PATH });
    expect((await checkout(orderId)).status).toBe(502);
    expect((await pay(orderId)).json).toMatchObject({ status: 'succeeded' });
    await ctx().sandbox.waitForDeliveries();
    const closed = ctx()
      .sandbox.deliveries()
      .filter((delivery) => delivery.payload['referenceOrderId'] === orderId && delivery.event === 'payment.closed');
    expect(closed).toHaveLength(1);
    expect(charges(orderId)).toHaveLength(1);
  });

  it('an order whose amount changed after its session opened: the next checkout ends that session and opens one for the new amount', async () => {
    const orderId = freshOrderId();
    const old = (await checkout(orderId)).json as { checkoutUrl: string };
    repriceOrder(orderId, { orderAmount: 50_000, priceCurrency: 'USD' });
    const raised = await checkout(orderId);
    expect(raised.status).toBe(201);
    const { checkoutUrl } = raised.json as { checkoutUrl: string };
    expect(checkoutUrl).not.toBe(old.checkoutUrl);
    expect((await payHostedPage(old.checkoutUrl)).status).toBe(410);
    expect((await payHostedPage(checkoutUrl)).status).toBeLessThan(400);
    expect(charges(orderId).map((charge) => charge.payableTotal)).toEqual([50_000]);
  });

  it('an order resolveOrder says is not payable answers 409 ORDER_NOT_PAYABLE on every payment route, sending nothing', async () => {
    const orderId = freshOrderId('settled');
    const refusal = {
      error: { code: 'ORDER_NOT_PAYABLE', message: 'This order cannot be paid now (already paid, cancelled or refunded).' },
    };
    for (const answer of [await checkout(orderId), await pay(orderId), seen(await send(`${ctx().app.url}/wallet/config?orderId=${orderId}`))]) {
      expect(answer.status).toBe(409);
      expect(answer.json).toEqual(refusal);
    }
    expect(ctx().sandbox.charges().filter((charge) => charge.referenceOrderId === orderId)).toEqual([]);
  });

  it('GET /status answers the order’s payment status, then its transaction once paid; never an amount', async () => {
    const orderId = freshOrderId();
    const before = await status(orderId);
    expect(before.status).toBe(200);
    expect(before.json).toEqual({ orderId, status: 'unpaid', payable: true, updatedAt: null });
    const paid = await pay(orderId);
    const after = await status(orderId);
    expect(after.json).toEqual({
      orderId,
      status: 'succeeded',
      payable: true,
      transactionId: (paid.json as { transactionId: string }).transactionId,
      updatedAt: expect.any(String),
    });
    expect(new Date((after.json as { updatedAt: string }).updatedAt).toISOString()).toBe((after.json as { updatedAt: string }).updatedAt);
    expect(after.text).not.toContain('1250');
  });

  it('GET /status: unknown order 404, missing orderId 400, wrong method 405', async () => {
    const unknown = await status(UNKNOWN_ORDER_ID);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: { code: 'ORDER_NOT_FOUND', message: 'No order exists with this orderId.' } });
    const missing = seen(await send(`${ctx().app.url}/status`));
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({
      error: { code: 'VALIDATION_ERROR', message: 'Invalid status request: orderId must be the order id, a string' },
    });
    const post = seen(await postJson(`${ctx().app.url}/status`, { orderId: 'order-1' }));
    expect(post.status).toBe(405);
    expect(post.allow).toBe('GET, HEAD');
  });
}
