import { startSandbox, type Delivery, type Sandbox } from '@paymount/sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { endProcess } from '../../../tools/forked-process';
import { freePort } from '../../../tools/free-port';
import { pgliteDataDir, type PGliteDataDir } from '../../../tools/pglite-data-dir';
import { MOUNT_PATH } from '../src/shop';
import { startKilledShop, type KilledShopConfig, type KilledShopProcess } from './support/pglite-shop-processes';

/**
 * The default shop database, PGlite in the shop's data folder, when the shop
 * is killed with SIGKILL (no chance to close it): right after an order was
 * paid, and inside the payment handler's transaction. Restarted on the same
 * folder, the shop still has every committed order, none half-written, and
 * a paid order is not charged again. The payment service (the sandbox) runs
 * in this process and outlives the shop, as a real one would.
 */
describe('a shop on PGlite killed with SIGKILL, restarted on the same data folder', () => {
  let sandbox: Sandbox;
  let folder: PGliteDataDir | undefined;
  let shop: KilledShopProcess | undefined;

  beforeAll(async () => {
    // Retries spanning a restart of the shop: PGlite opens its folder in a few seconds, in tens of seconds on a loaded machine.
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, log: false, webhookRetryDelaysMs: Array.from({ length: 120 }, () => 1_000) });
  });
  afterEach(async () => {
    await endProcess(shop, 'SIGKILL');
    folder?.remove();
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  async function shopConfig(): Promise<KilledShopConfig> {
    folder = await pgliteDataDir();
    const { url, webhookSecret, gatewayId, apiKey, appId, merchantId } = sandbox;
    return { dataDir: folder.dir, port: await freePort(), sandbox: { url, webhookSecret, gatewayId, client: { apiKey, baseUrl: url, appId, merchantId } } };
  }

  async function payByWallet(config: KilledShopConfig, orderId: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`http://127.0.0.1:${config.port}${MOUNT_PATH}/wallet/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, token: sandbox.mintWalletToken() }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const chargesOf = (orderId: string) => sandbox.charges().filter((charge) => charge.referenceOrderId === orderId);
  const deliveryOf = (transactionId: string): Delivery | undefined => sandbox.deliveries().find((delivery) => delivery.payload['transactionId'] === transactionId);

  /** Restarted on the same folder: the paid order is paid, with its payment, and paying it again is refused with nothing charged. */
  async function expectPaidOnce(config: KilledShopConfig, orderId: string, transactionId: string): Promise<void> {
    expect(await shop!.getOrder(orderId)).toMatchObject({ status: 'paid', paymentTransactionId: transactionId });
    const again = await payByWallet(config, orderId);
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'ORDER_NOT_PAYABLE' } } });
    expect(chargesOf(orderId)).toHaveLength(1);
  }

  it('killed right after an order was paid: the order is still paid, the other orders as they were, and paying again charges nothing', async () => {
    const config = await shopConfig();
    shop = await startKilledShop(config);
    const order = await shop.createOrder();
    const unpaid = await shop.createOrder();
    expect(await payByWallet(config, order.id)).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    await sandbox.waitForDeliveries(150_000);
    const [charge] = chargesOf(order.id);
    expect(deliveryOf(charge!.transactionId)?.state).toBe('delivered');
    const paid = await shop.getOrder(order.id);
    shop.child.kill('SIGKILL');
    expect(await shop.exited).toBe('SIGKILL');

    shop = await startKilledShop(config);
    expect(await shop.getOrder(order.id)).toEqual(paid);
    expect(await shop.getOrder(unpaid.id)).toEqual(unpaid);
    await expectPaidOnce(config, order.id, charge!.transactionId);
  });

  it('killed inside the payment handler\'s transaction, after its write: the restarted shop has the order unpaid, then paid once by the redelivery', async () => {
    const config = await shopConfig();
    shop = await startKilledShop({ ...config, killMidTransaction: true });
    const order = await shop.createOrder();
    expect(await payByWallet(config, order.id)).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    expect(await shop.exited).toBe('SIGKILL');
    const [charge] = chargesOf(order.id);

    shop = await startKilledShop(config);
    // Not half-written: the handler's UPDATE was never committed.
    expect(await shop.getOrder(order.id)).toEqual(order);
    await sandbox.waitForDeliveries(150_000);
    const delivery = deliveryOf(charge!.transactionId)!;
    expect(delivery.state).toBe('delivered');
    expect((await sandbox.resend(delivery.deliveryId)).state).toBe('delivered');
    await expectPaidOnce(config, order.id, charge!.transactionId);
  });
});
