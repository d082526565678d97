import type { MerchantOrder } from '@paymount/core';

/** The merchant's server-side orders the suite pays. Amounts are the sandbox's outcome switches. */
export const ORDERS: Readonly<Record<string, MerchantOrder>> = {
  'order-1': {
    referenceOrderId: 'order-0001',
    amount: { orderAmount: 1250, taxAmount: 100, priceCurrency: 'USD' },
    description: 'Two coffees',
    productList: [{ amount: 625, name: 'Coffee', num: 2 }],
  },
  'order-declined': {
    referenceOrderId: 'order-0002',
    // 8888 is declined by the sandbox.
    amount: { orderAmount: 8888, priceCurrency: 'USD' },
    description: 'Declined on purpose',
  },
  'order-broken': {
    referenceOrderId: 'order-0003',
    // A major-unit decimal: a bug on the merchant's server, never the shopper's.
    amount: { orderAmount: 12.5, priceCurrency: 'USD' },
    description: 'Priced in dollars by mistake',
  },
};

/** The client's per-attempt time-out in the suite, and how long an injected delay holds the service's answer past it. */
export const CLIENT_TIMEOUT_MS = 1_500;
export const UPSTREAM_DELAY_MS = 2_500;

export const UNKNOWN_ORDER_ID = 'order-nobody-has';

/** A storefront on another origin the suite allows to post the checkout form. */
export const ALLOWED_ORIGIN = 'https://storefront.example';

let freshOrders = 0;

/**
 * An order id no case has paid yet: each case that pays gets its own order,
 * since an order is charged at most once. `fresh-…` ids resolve to a payable
 * order of 12.50 + 1.00 tax; `settled-…` ones to an order the merchant no
 * longer takes payment for.
 */
export function freshOrderId(kind: 'fresh' | 'settled' = 'fresh'): string {
  freshOrders += 1;
  return `${kind}-${process.pid}-${freshOrders}`;
}

const repriced = new Map<string, MerchantOrder['amount']>();

/** The merchant changes a fresh order's amount on its server (a raised total, another currency). */
export function repriceOrder(orderId: string, amount: MerchantOrder['amount']): void {
  repriced.set(orderId, amount);
}

/** The merchant's resolveOrder of the suite: the fixed ORDERS, and the generated ones of freshOrderId. */
export function resolveConformanceOrder(orderId: string): MerchantOrder | null {
  const fixed = ORDERS[orderId];
  if (fixed) return fixed;
  const kind = /^(fresh|settled)-\d+-\d+$/.exec(orderId)?.[1];
  if (kind === undefined) return null;
  return {
    referenceOrderId: orderId,
    amount: repriced.get(orderId) ?? { orderAmount: 1250, taxAmount: 100, priceCurrency: 'USD' },
    description: 'A conformance order',
    ...(kind === 'settled' ? { payable: false } : {}),
  };
}

/** Request body limit the suite configures, small so that an oversize body is cheap to send. */
export const BODY_LIMIT_BYTES = 4 * 1024;
/** How long the routes wait for a whole body in the suite: short, so a slow-loris case is answered quickly. */
export const BODY_READ_TIMEOUT_MS = 600;
/** The webhook's own (larger) limit, so the adapter reads bodies up to it and each route still keeps its own. */
export const WEBHOOK_MAX_BODY_BYTES = 16 * 1024;

/** A SALE body as the service sends it: a failure or closure with its reason, a closure naming its session. */
export function webhookPayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const status = overrides['transactionStatus'] ?? 'S';
  return {
    transactionId: 'TX-1001',
    transactionRequestId: 'REQ-1001',
    referenceOrderId: 'order-0001',
    transactionType: 'SALE',
    transactionStatus: 'S',
    amount: { orderAmount: 1250, taxAmount: 100, priceCurrency: 'USD' },
    ...(status === 'S' ? {} : { reason: { code: 'CARD_DECLINED', message: 'card declined' } }),
    ...(status === 'C' ? { sessionId: 'cs_conformance' } : {}),
    futureField: 'kept',
    ...overrides,
  };
}
