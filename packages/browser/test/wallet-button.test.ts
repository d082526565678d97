import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureConsole, type ConsoleCapture } from '../../../tools/adapter-testing';
import { freshOrderId, repriceOrder, UNKNOWN_ORDER_ID, UPSTREAM_DELAY_MS } from '../../../tools/conformance/fixtures';
import { mountWalletButton, type WalletClient, type WalletResult } from '../src';
import { startShopApp, type ShopApp } from '../../../tools/browser-testing/shop-app';
import { keepingTokens, sandboxTestWallet, TestButton } from './support/test-wallet';

describe('mountWalletButton against @paymount/express and the sandbox', () => {
  let shop: ShopApp;
  let testWallet: WalletClient;
  let console: ConsoleCapture;
  const tokens: string[] = [];
  const results: WalletResult[] = [];

  beforeAll(async () => {
    shop = await startShopApp();
    testWallet = keepingTokens(await sandboxTestWallet(shop.fixture.sandbox.url), tokens);
    console = captureConsole();
  });

  afterEach(() => shop.fixture.sandbox.clearFaults());

  afterAll(async () => {
    console.restore();
    await shop?.close();
  });

  /** Mounts a button for `orderId`, waits until it is ready, clicks it and resolves how the click ended. */
  async function clickToPay(orderId: string, wallet: WalletClient = testWallet): Promise<{ result: WalletResult; button: TestButton }> {
    const button = new TestButton();
    let settle!: (result: WalletResult) => void;
    const ended = new Promise<WalletResult>((resolve) => (settle = resolve));
    const mounted = mountWalletButton(button, { mount: shop.mount, orderId, wallet, onResult: settle });
    expect(button.disabled).toBe(true);
    await expect(mounted.ready).resolves.toBe(true);
    expect(button.disabled).toBe(false);
    button.click();
    const result = await ended;
    results.push(result);
    return { result, button };
  }

  const statusOf = async (orderId: string) =>
    ((await (await fetch(`${shop.mount}/status?orderId=${orderId}`)).json()) as { status: string }).status;

  it('a click pays the order with the sandbox test wallet, and the button stays disabled', async () => {
    const orderId = freshOrderId();
    const { result, button } = await clickToPay(orderId);
    expect(result).toEqual({ outcome: 'paid', orderId, transactionId: expect.any(String) });
    expect(button.disabled).toBe(true);
    expect(await statusOf(orderId)).toBe('succeeded');
  });

  it('a declined payment resolves declined with the service reason code, and the button can be clicked again', async () => {
    const orderId = freshOrderId();
    repriceOrder(orderId, { orderAmount: 8888, priceCurrency: 'USD' });
    const { result, button } = await clickToPay(orderId);
    expect(result).toEqual({ outcome: 'declined', orderId, reason: 'CARD_DECLINED' });
    expect(button.disabled).toBe(false);
    expect(await statusOf(orderId)).toBe('failed');
  });

  it('a sheet the shopper closes resolves closed, charges nothing, and the button can be clicked again', async () => {
    const orderId = freshOrderId();
    // What the wallet API rejects with when the shopper closes its sheet.
    const closing: WalletClient = { loadPaymentData: () => Promise.reject({ statusCode: 'CANCELED', statusMessage: 'User closed the Payment Request UI.' }) };
    const { result, button } = await clickToPay(orderId, closing);
    expect(result).toEqual({ outcome: 'closed', orderId });
    expect(button.disabled).toBe(false);
    expect(await statusOf(orderId)).toBe('unpaid');
  });

  it('a payment whose service answer times out resolves pending (the webhook settles it), never failed', async () => {
    shop.fixture.sandbox.injectFault({ kind: 'delay', path: '/v1/checkout/sale', delayMs: UPSTREAM_DELAY_MS });
    const orderId = freshOrderId();
    const { result, button } = await clickToPay(orderId);
    expect(result).toEqual({ outcome: 'pending', orderId });
    expect(button.disabled).toBe(true);
  });

  it("a token the routes refuse resolves failed with the route's error code and status", async () => {
    const orderId = freshOrderId();
    const notAToken: WalletClient = { loadPaymentData: () => Promise.resolve({ paymentMethodData: { tokenizationData: { token: 'not a wallet token' } } }) };
    const { result, button } = await clickToPay(orderId, notAToken);
    expect(result).toMatchObject({ outcome: 'failed', orderId, error: { code: 'VALIDATION_ERROR', status: 400 } });
    expect(button.disabled).toBe(false);
  });

  it('a wallet error other than a closed sheet resolves failed with the wallet status code', async () => {
    const orderId = freshOrderId();
    const broken: WalletClient = { loadPaymentData: () => Promise.reject({ statusCode: 'DEVELOPER_ERROR', statusMessage: 'gateway is required' }) };
    const { result } = await clickToPay(orderId, broken);
    expect(result).toEqual({ outcome: 'failed', orderId, error: { code: 'DEVELOPER_ERROR', message: 'gateway is required', status: 0 } });
  });

  it("an order the routes refuse never enables the button: ready is the route's error", async () => {
    const button = new TestButton();
    const unknown = mountWalletButton(button, { mount: shop.mount, orderId: UNKNOWN_ORDER_ID, wallet: testWallet });
    expect(await unknown.ready).toMatchObject({ outcome: 'failed', orderId: UNKNOWN_ORDER_ID, error: { code: 'ORDER_NOT_FOUND', status: 404 } });
    const settled = mountWalletButton(button, { mount: shop.mount, orderId: freshOrderId('settled'), wallet: testWallet });
    expect(await settled.ready).toMatchObject({ outcome: 'failed', error: { code: 'ORDER_NOT_PAYABLE', status: 409 } });
    expect(button.disabled).toBe(true);
  });

  it('a button unmounted before its setup ends is never enabled, and a click after unmount pays nothing', async () => {
    const orderId = freshOrderId();
    const early = new TestButton();
    const unmountedEarly = mountWalletButton(early, { mount: shop.mount, orderId, wallet: testWallet });
    unmountedEarly.unmount();
    expect(await unmountedEarly.ready).toMatchObject({ outcome: 'failed', error: { code: 'UNMOUNTED' } });
    expect(early.disabled).toBe(true);

    const late = new TestButton();
    const unmountedLate = mountWalletButton(late, { mount: shop.mount, orderId, wallet: testWallet, onResult: (result) => results.push(result) });
    expect(await unmountedLate.ready).toBe(true);
    unmountedLate.unmount();
    late.click();
    expect(await statusOf(orderId)).toBe('unpaid');
  });

  it('no token is in a result, a console line or an answer the routes gave', () => {
    expect(tokens.length).toBeGreaterThan(0);
    const seen = [JSON.stringify(results), ...console.lines];
    for (const token of tokens) for (const text of seen) expect(text).not.toContain(token);
  });
});
