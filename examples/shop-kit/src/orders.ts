import { randomBytes } from 'node:crypto';
import type { Product } from './catalog';

export type OrderStatus = 'pending' | 'paid' | 'failed';

export interface Order {
  /** Also the `referenceOrderId` sent to the service: 6 to 32 characters of `[A-Za-z0-9_-]`. */
  id: string;
  product: Product;
  /** Total in minor units, computed on the server from the catalogue. */
  total: number;
  currency: string;
  status: OrderStatus;
  /** Why the status is what it is, in words for the customer. */
  note: string;
  /** Bumped on every change, so a page can tell that what it shows is stale. */
  version: number;
  createdAt: Date;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function newOrderId(): string {
  // 16 random characters drawn without modulo bias (62 * 4 = 248 < 256).
  const chars: string[] = [];
  while (chars.length < 16) {
    for (const byte of randomBytes(32)) {
      if (byte < 248 && chars.length < 16) chars.push(ALPHABET[byte % 62] as string);
    }
  }
  return `ord_${chars.join('')}`;
}

/**
 * Orders kept in memory, as a demo shop may. Bounded: past `maxOrders` the
 * oldest is forgotten, so a long-running example cannot grow without limit.
 */
export class OrderStore {
  private readonly orders = new Map<string, Order>();

  constructor(private readonly maxOrders = 1000) {}

  create(product: Product, now = new Date()): Order {
    const order: Order = {
      id: newOrderId(),
      product,
      total: product.unitPrice,
      currency: product.currency,
      status: 'pending',
      note: 'Awaiting payment.',
      version: 1,
      createdAt: now,
    };
    this.orders.set(order.id, order);
    if (this.orders.size > this.maxOrders) {
      const oldest = this.orders.keys().next().value;
      if (oldest !== undefined) this.orders.delete(oldest);
    }
    return order;
  }

  get(id: string): Order | undefined {
    return this.orders.get(id);
  }

  /** Paid is final: a late failure or cancellation notice for the same order changes nothing. */
  settle(id: string, status: OrderStatus, note: string): Order | undefined {
    const order = this.orders.get(id);
    if (!order || order.status === 'paid') return order;
    order.status = status;
    order.note = note;
    order.version += 1;
    return order;
  }
}
