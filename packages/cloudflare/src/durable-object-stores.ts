import { validate } from '@paymount/core/schemas';
import { D1Marks } from './d1-marks';
import { DurableObjectIdempotencyStore } from './durable-object-idempotency-store';
import { DurableObjectOrderAttemptStore } from './durable-object-order-store';
import { durableObjectStoresSchema } from './options-schema';
import { PaymountObjects, type PaymountStateNamespace } from './paymount-objects';
import type { D1Database } from './workers-types';

export interface DurableObjectStoresOptions {
  /**
   * The merchant's D1 database whose writes a handler commits with its
   * event's handled mark (`ctx.db.d1(statement)`): the batch also keeps the
   * mark in a table of its own, `paymount_handled_events`, created on first use.
   */
  d1?: D1Database;
}

export interface DurableObjectStores {
  /** The per-order payment guard's store: the routes' `orders.store` option. */
  orders: DurableObjectOrderAttemptStore;
  /** The webhook dedupe store: the routes' `store` option. */
  idempotency: DurableObjectIdempotencyStore;
}

/**
 * Both stores a paymount app needs on Workers, in the PaymountState objects of
 * `namespace`. Cheap to make: routes made per request may make them per request.
 */
export function durableObjectStores(namespace: PaymountStateNamespace, options?: DurableObjectStoresOptions): DurableObjectStores {
  validate(durableObjectStoresSchema, { namespace, ...(options === undefined ? {} : { options }) }, 'durableObjectStores()');
  const objects = new PaymountObjects(namespace);
  return {
    orders: new DurableObjectOrderAttemptStore(objects),
    idempotency: new DurableObjectIdempotencyStore(objects, options?.d1 === undefined ? undefined : new D1Marks(options.d1)),
  };
}
