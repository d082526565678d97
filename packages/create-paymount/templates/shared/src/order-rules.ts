/** `paid` and `refunded` are final for payments: a late or replayed payment event never moves an order back. */
export type OrderStatus = 'pending' | 'failed' | 'paid' | 'refunded';

export interface Order {
  /** Also the `referenceOrderId` the service sees: unguessable, 6 to 32 of `A-Za-z0-9_-`. */
  id: string;
  sku: string;
  name: string;
  /** Minor units, from the catalogue when the order was placed. */
  amount: number;
  currency: string;
  status: OrderStatus;
  /** The payment's transactionId, which a refund names. */
  transactionId: string | null;
}

/** What the shop's pages say of an order in each status. */
export const ORDER_STATUS_TEXT: Readonly<Record<OrderStatus, string>> = {
  pending: 'Awaiting payment.',
  failed: 'The last payment was declined; nothing was charged. You can pay again.',
  paid: 'Paid. Thank you!',
  refunded: 'Refunded.',
};

/** A declined, cancelled or expired attempt leaves the order payable: the shopper pays again instead of the sale being lost. */
export function isPayable(order: Order): boolean {
  return order.status === 'pending' || order.status === 'failed';
}
