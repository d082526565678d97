import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshOrderId, UNKNOWN_ORDER_ID } from '../../../tools/conformance/fixtures';
import { followOrderStatus, mountWalletButton, type OrderStatus, type WalletResult } from '../src';
import { startShopApp, type ShopApp } from '../../../tools/browser-testing/shop-app';
import { sandboxTestWallet, TestButton } from './support/test-wallet';

/** A clock the test drives: every wait is recorded and ends at once. */
function instantClock(): { waits: number[]; wait: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return {
    waits,
    wait: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  };
}

describe('followOrderStatus against @paymount/express and the sandbox', () => {
  let shop: ShopApp;

  beforeAll(async () => {
    shop = await startShopApp();
  });

  afterAll(() => shop?.close());

  it('stops by itself at a paid order, handing each answer to onStatus', async () => {
    const orderId = freshOrderId();
    const wallet = await sandboxTestWallet(shop.fixture.sandbox.url);
    const button = new TestButton();
    let settle!: (result: WalletResult) => void;
    const paid = new Promise<WalletResult>((resolve) => (settle = resolve));
    expect(await mountWalletButton(button, { mount: shop.mount, orderId, wallet, onResult: settle }).ready).toBe(true);
    button.click();
    expect(await paid).toMatchObject({ outcome: 'paid' });

    const clock = instantClock();
    const seen: OrderStatus[] = [];
    const followed = followOrderStatus({ mount: shop.mount, orderId, wait: clock.wait, onStatus: (status) => seen.push(status) });
    expect(await followed.done).toMatchObject({ orderId, status: 'succeeded', payable: true, transactionId: expect.any(String) });
    expect(clock.waits).toEqual([1000]);
    expect(seen).toHaveLength(1);
  });

  it('gives up on an order that stays unpaid, waiting longer each time up to the limit', async () => {
    const clock = instantClock();
    const seen: OrderStatus[] = [];
    const orderId = freshOrderId();
    const followed = followOrderStatus({ mount: shop.mount, orderId, wait: clock.wait, onStatus: (status) => seen.push(status), giveUpAfterMs: 60_000 });
    expect(await followed.done).toBeUndefined();
    expect(clock.waits).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000, 15_000]);
    expect(seen).toHaveLength(7);
    expect(seen[0]).toEqual({ orderId, status: 'unpaid', payable: true, updatedAt: null });
  });

  it('stops at the first refusal that asking again would not change (an unknown order)', async () => {
    const clock = instantClock();
    const followed = followOrderStatus({ mount: shop.mount, orderId: UNKNOWN_ORDER_ID, wait: clock.wait });
    expect(await followed.done).toBeUndefined();
    expect(clock.waits).toEqual([1000]);
  });

  it('stop() ends it while it waits', async () => {
    const followed = followOrderStatus({ mount: shop.mount, orderId: freshOrderId(), wait: () => new Promise(() => undefined) });
    followed.stop();
    expect(await followed.done).toBeUndefined();
  });
});
