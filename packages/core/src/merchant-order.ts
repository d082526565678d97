import type { Amount, ProductLineItem } from './types/amount';

/** The merchant's own order, looked up on the server: the only source of the amount charged. */
export interface MerchantOrder {
  /** The service's `referenceOrderId`: 6 to 32 characters of `[A-Za-z0-9_-|*]`. */
  referenceOrderId: string;
  /** Integers in minor units. */
  amount: Amount;
  description: string;
  productList?: ProductLineItem[];
  /** Overrides the `merchantReturnUrl` option for this order. */
  merchantReturnUrl?: string;
  /**
   * `false` when the order takes no payment (already paid, cancelled,
   * refunded): the payment routes answer 409 `ORDER_NOT_PAYABLE` and send
   * nothing; GET /status still answers for it. Default true.
   */
  payable?: boolean;
}
