import { afterEach, describe, expect, it } from 'vitest';
import { createPaymentRoutes, MemoryIdempotencyStore } from '../src/index';
import type { NeutralRequest } from '../src/entries/http';
import { inEventCommit } from '../src/entries/stores';
import type { Logger, PaymentEventContext, PaymentRoutes } from '../src/index';
import { sale, signedDelivery } from './support/signed-sale';

const secret = 'whsec_transactional_test_secret';

/** A transaction of the store below: writes are kept aside until it commits. */
class Transaction {
  readonly writes: string[] = [];
  write(effect: string): void {
    this.writes.push(effect);
  }
}

/**
 * The memory store with runHandled: the handlers' writes and the mark are
 * committed together, or both discarded. `failMark` makes the mark fail
 * after the handlers ran (a commit refused, a claim taken over).
 */
class TransactionalStore extends MemoryIdempotencyStore {
  readonly committed: string[] = [];
  completions = 0;
  failMark = false;

  async runHandled<T>(key: string, ttlMs: number, handle: (transaction: unknown) => Promise<T>): Promise<T> {
    const tx = new Transaction();
    const result = await handle(tx);
    if (this.failMark) throw new Error('the mark could not be committed');
    await super.complete(key, ttlMs);
    this.committed.push(...tx.writes);
    return result;
  }

  override async complete(key: string, ttlMs: number): Promise<void> {
    this.completions += 1;
    await super.complete(key, ttlMs);
  }
}

const open: PaymentRoutes[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((routes) => routes.close()));
});

function routes(store: MemoryIdempotencyStore, handler: (event: unknown, ctx: PaymentEventContext) => unknown, logger: Logger | false = false): PaymentRoutes {
  const created = createPaymentRoutes({
    client: { apiKey: 'sk_test_transactional_0123456789', baseUrl: 'https://payments.example.com', appId: 'app1', merchantId: 'm1' },
    resolveOrder: () => null,
    webhook: { secret },
    store,
    on: { 'payment.succeeded': handler },
    logger,
  });
  open.push(created);
  return created;
}

const delivery = (transactionId: string) => signedDelivery(sale(transactionId), secret);

const statusOf = async (paymentRoutes: PaymentRoutes, request: NeutralRequest) => (await paymentRoutes.handle(request))?.status;

describe('a store with runHandled(): handlers write in the transaction that marks their event handled', () => {
  it('handlers get the transaction as ctx.db; their writes commit with the mark, and complete() is not called', async () => {
    const store = new TransactionalStore();
    const paymentRoutes = routes(store, (_event, { db }) => (db as Transaction).write('order-0001 paid'));
    expect(await statusOf(paymentRoutes, delivery('txn_1'))).toBe(200);
    expect(store.committed).toEqual(['order-0001 paid']);
    expect(store.completions).toBe(0);
    // The redelivery is a duplicate: nothing runs, nothing more is written.
    expect(await statusOf(paymentRoutes, delivery('txn_1'))).toBe(200);
    expect(store.committed).toEqual(['order-0001 paid']);
  });

  it('a handler that throws commits nothing and frees the event, so its retry runs the handlers again', async () => {
    const store = new TransactionalStore();
    let runs = 0;
    const paymentRoutes = routes(store, (_event, { db }) => {
      runs += 1;
      (db as Transaction).write(`effect of run ${runs}`);
      if (runs === 1) throw new Error('the merchant write failed');
    });
    expect(await statusOf(paymentRoutes, delivery('txn_2'))).toBe(500);
    expect(store.committed).toEqual([]);
    expect(await statusOf(paymentRoutes, delivery('txn_2'))).toBe(200);
    expect(store.committed).toEqual(['effect of run 2']);
  });

  it('a mark that fails after the handlers ran is a failed delivery: nothing committed, the event retried', async () => {
    const store = new TransactionalStore();
    store.failMark = true;
    const paymentRoutes = routes(store, (_event, { db }) => (db as Transaction).write('order-0001 paid'));
    expect(await statusOf(paymentRoutes, delivery('txn_3'))).toBe(500);
    expect(store.committed).toEqual([]);
    store.failMark = false;
    expect(await statusOf(paymentRoutes, delivery('txn_3'))).toBe(200);
    expect(store.committed).toEqual(['order-0001 paid']);
  });

  it('without runHandled, ctx.db is undefined and complete() marks the event after the handlers, as before', async () => {
    const store = new (class extends MemoryIdempotencyStore {
      completions = 0;
      override async complete(key: string, ttlMs: number): Promise<void> {
        this.completions += 1;
        await super.complete(key, ttlMs);
      }
    })();
    const seen: unknown[] = [];
    const paymentRoutes = routes(store, (_event, ctx) => void seen.push(ctx.db));
    expect(await statusOf(paymentRoutes, delivery('txn_4'))).toBe(200);
    expect(seen).toEqual([undefined]);
    expect(store.completions).toBe(1);
  });
});

describe('inEventCommit(): the wrapper a store gives its handlers (inTransaction, inKvCommit)', () => {
  const inTestTransaction = inEventCommit({
    is: (db: unknown): db is Transaction => db instanceof Transaction,
    commit: 'test transaction',
    store: 'new TransactionalStore()',
  });

  it("with its store, the handler gets the store's commit as ctx.db, typed, and its writes commit with the mark", async () => {
    const store = new TransactionalStore();
    const paymentRoutes = routes(store, inTestTransaction((_event, { db }) => db.write('order-0001 paid')));
    expect(await statusOf(paymentRoutes, delivery('txn_5'))).toBe(200);
    expect(store.committed).toEqual(['order-0001 paid']);
  });

  it('with another store, the handler does not run: the delivery fails with an error naming the store option and its fix', async () => {
    const errors: unknown[] = [];
    const logger: Logger = { debug() {}, info() {}, warn() {}, error: (fields: unknown) => void errors.push((fields as { err?: unknown }).err) };
    let ran = false;
    const paymentRoutes = routes(
      new MemoryIdempotencyStore(),
      inTestTransaction(() => {
        ran = true;
      }),
      logger,
    );
    expect(await statusOf(paymentRoutes, delivery('txn_6'))).toBe(500);
    expect(ran).toBe(false);
    expect(errors).toHaveLength(1);
    // The log holds the error as the redacting logger serialises it: its name, code and message.
    expect(errors[0]).toMatchObject({
      name: 'PaymentValidationError',
      code: 'VALIDATION_ERROR',
      message:
        'Invalid event handler context: store gives no test transaction that marks the event handled, in which this handler writes: set `store` to new TransactionalStore()',
    });
  });
});
