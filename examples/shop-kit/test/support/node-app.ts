import { createNodeMiddleware } from '@paymount/core';
import type { ShopApp } from '../../src/server';
import { MOUNT_PATH, type Shop } from '../../src/shop';

/** A shop's payment routes as node middleware, wired as the example shops wire theirs; `notifyUrl` may be replaced. */
export function nodeApp(shop: Shop, overrides: { notifyUrl?: () => undefined } = {}): ShopApp {
  const payments = createNodeMiddleware(
    { ...shop.payments, ...overrides, resolveOrder: (id) => shop.resolveOrder(id), on: { '*': shop.onPaymentEvent } },
    { mountPath: MOUNT_PATH },
  );
  return { listener: payments, paymentRoutes: payments.paymentRoutes, close: () => payments.paymentRoutes.close() };
}
