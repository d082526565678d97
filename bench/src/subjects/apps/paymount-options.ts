import { once } from 'node:events';
import { createWebhookQueue, type WebhookQueue } from '@paymount/bullmq';
import { silentLogger, type IdempotencyStore, type OrderAttemptStore, type PaymentEventHandler, type PaymentRoutesOptions } from '@paymount/core';
import { createPostgresStores, fromPg, inTransaction, migrate } from '@paymount/postgres';
import { createRedisClient, RedisIdempotencyStore } from '@paymount/redis';
import pg from 'pg';
import { MARK_PAID } from '../../fixtures/merchant-orders';
import { CREDENTIALS, NOTIFY_URL, resolveOrder, WEBHOOK_SECRET } from '../../fixtures/shop';

/** What a figure changes in the merchant's setup: where the order guard and the webhook dedupe keep their state. */
export interface AppVariant {
  /** `none`: an order store that keeps nothing, so the guard never finds an earlier attempt: the guard off, in effect. */
  orders?: 'memory' | 'none';
  /** Webhook deliveries deduplicated in the Redis at this URL instead of in memory. */
  redisUrl?: string;
  /** Webhook deliveries deduplicated in the PostgreSQL at this URL (a pg Pool, the shipped tables) instead of in memory. */
  databaseUrl?: string;
  /** Queued processing (@paymount/bullmq) in the Redis at `redisUrl`, in the queue of this name. */
  queue?: QueuedVariant;
  /**
   * The "payment.succeeded" handler marks the event's order paid (MARK_PAID, one UPDATE of the
   * merchant's orders table): through the transaction that marks the event handled (`inTransaction`;
   * the Postgres store of `databaseUrl` gives it), or through a pg Pool of the handler's own to
   * `databaseUrl` here, as a merchant without that store writes. Default: the handler counts.
   */
  markPaid?: { through: 'transaction' } | { through: 'pool'; databaseUrl: string };
}

export interface QueuedVariant {
  name: string;
  /** How long the handler the workers run takes. */
  handlerMs: number;
  /** Jobs run at once by workers in the app's process; 0 for none (the queue only fills). */
  concurrency: number;
}

/** The baseline of the wallet guard figure: every lock granted, nothing kept, nothing found. */
const keepsNothing: OrderAttemptStore = {
  lock: async () => 'bench',
  unlock: async () => undefined,
  get: async () => undefined,
  put: async () => undefined,
  delete: async () => undefined,
  settle: async () => false,
  unsettled: async () => [],
};

/** A variant's stores, built in the app's process. */
export interface AppSetup {
  orders?: OrderAttemptStore;
  store?: IdempotencyStore;
  processing?: WebhookQueue;
  /** The "payment.succeeded" handler, when the variant gives one (markPaid). */
  onSucceeded?: PaymentEventHandler<'payment.succeeded'>;
}

/** A Redis or PostgreSQL store is ready before the app serves (a Redis store refuses until its connection is: the route answers 503). */
export async function setupOf(variant: AppVariant = {}): Promise<AppSetup> {
  const setup: AppSetup = variant.orders === 'none' ? { orders: keepsNothing } : {};
  if (variant.redisUrl !== undefined) {
    const client = createRedisClient(variant.redisUrl);
    await once(client, 'ready');
    // A queue's apps and workers keep their events apart from the other apps sharing the Redis (one event is in progress in one, not in all).
    setup.store = new RedisIdempotencyStore({ client, ...(variant.queue === undefined ? {} : { keyPrefix: `${variant.queue.name}:` }) });
    if (variant.queue !== undefined) {
      setup.processing = createWebhookQueue({ connection: variant.redisUrl, name: variant.queue.name, logger: silentLogger });
      await setup.processing.bullQueue.waitUntilReady();
    }
  }
  if (variant.databaseUrl !== undefined) {
    const db = fromPg(new pg.Pool({ connectionString: variant.databaseUrl, max: 20 }));
    // Migrated before it serves, so no delivery waits for the tables.
    await migrate(db);
    setup.store = createPostgresStores(db, { migrate: false }).idempotency;
  }
  if (variant.markPaid !== undefined) setup.onSucceeded = markPaidHandler(variant.markPaid);
  return setup;
}

/** The handler of a markPaid variant. Both sides send the UPDATE prepared (fromPg prepares `db`'s statements), so the pair differs only in how it is committed. */
function markPaidHandler(markPaid: NonNullable<AppVariant['markPaid']>): PaymentEventHandler<'payment.succeeded'> {
  if (markPaid.through === 'transaction') {
    return inTransaction(async (event, { db }) => {
      await db.query(MARK_PAID, [event.referenceOrderId, event.transactionId]);
    });
  }
  const pool = new pg.Pool({ connectionString: markPaid.databaseUrl, max: 20 });
  return async (event) => {
    await pool.query({ name: 'bench_mark_paid', text: MARK_PAID, values: [event.referenceOrderId, event.transactionId] });
  };
}

/** The same payment setup for every framework: the merchant's orders, the stub as the service. */
export function paymountOptions(upstream: string, onSucceeded: () => unknown, setup: AppSetup = {}): PaymentRoutesOptions {
  return {
    client: { ...CREDENTIALS, baseUrl: upstream, localDevelopment: true },
    resolveOrder,
    notifyUrl: NOTIFY_URL,
    webhook: { secret: WEBHOOK_SECRET, ...(setup.processing === undefined ? {} : { processing: setup.processing }) },
    ...(setup.store === undefined ? {} : { store: setup.store }),
    ...(setup.orders === undefined ? {} : { orders: { store: setup.orders } }),
    on: { 'payment.succeeded': setup.onSucceeded ?? onSucceeded },
    // As silent as the hand-written routes it is measured against.
    logger: false,
  };
}

/** What both sides' webhook handlers do: count, so the work cannot be optimised away. */
export const handled = { events: 0 };
export const countEvent = (): void => {
  handled.events++;
};
