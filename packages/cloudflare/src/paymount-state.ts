import type { IdempotencyKeyState, OrderAttempt, OrderAttemptUpdate } from '@paymount/core';
import { DurableObject } from 'cloudflare:workers';
import { eventState, ObjectEffects, type CommitOutcome, type ObjectWrite } from './event-state';
import { ExpiringEntries } from './expiring-entries';
import { orderState, type KeptAttempt } from './order-state';
import { UnsettledIndex } from './unsettled-index';

/**
 * What the stores call on a PaymountState object, each one RPC. Its own type
 * (the class's declaration extends `cloudflare:workers`' DurableObject), so
 * that the package's public types resolve without the Workers type package.
 */
export interface PaymountStateMethods {
  orderLock(ttlMs: number): Promise<string | undefined>;
  orderUnlock(token: string): void;
  orderGet(): OrderAttempt | undefined;
  orderPut(attempt: OrderAttempt, ttlMs: number): Promise<KeptAttempt>;
  orderDelete(): void;
  orderSettle(transactionRequestId: string, update: OrderAttemptUpdate, ttlMs: number): Promise<KeptAttempt | undefined>;
  indexTrack(attempt: OrderAttempt, expiresAt: number): Promise<void>;
  indexForget(referenceOrderId: string): void;
  indexList(changedBefore: number, limit: number): OrderAttempt[];
  eventClaim(token: string, ttlMs: number): Promise<boolean>;
  eventRelease(token: string): void;
  eventComplete(token: string | undefined, ttlMs: number): Promise<void>;
  eventRenew(token: string, ttlMs: number): Promise<boolean>;
  eventState(): IdempotencyKeyState | undefined;
  eventCommit(token: string, ttlMs: number, writes: readonly ObjectWrite[]): Promise<CommitOutcome>;
  eventEffects(): Record<string, unknown>;
  alarm(): Promise<void>;
}

/**
 * The Durable Object behind durableObjectStores(): re-export it from the
 * Worker's entry and bind it (SQLite-backed: a `new_sqlite_classes`
 * migration). One object per order (`order:<referenceOrderId>`), one per
 * event (`event:<dedupe key>`) and one index of unsettled attempts; every
 * method is one RPC whose check-and-set runs without an await, so the
 * object's input gate makes it atomic. Expired state is deleted by the
 * object's alarm, and every read checks the stored deadline, so nothing
 * depends on the alarm having run.
 */
export class PaymountState extends DurableObject implements PaymountStateMethods {
  private entries!: ExpiringEntries;
  private index!: UnsettledIndex;
  private effects!: ObjectEffects;

  constructor(ctx: ConstructorParameters<typeof DurableObject>[0], env: unknown) {
    super(ctx, env);
    this.openTables();
  }

  async orderLock(ttlMs: number): Promise<string | undefined> {
    const token = orderState.lock(this.entries, Date.now(), ttlMs);
    if (token !== undefined) await this.expireBy(Date.now() + ttlMs);
    return token;
  }

  orderUnlock(token: string): void {
    orderState.unlock(this.entries, Date.now(), token);
  }

  orderGet(): OrderAttempt | undefined {
    return orderState.get(this.entries, Date.now());
  }

  async orderPut(attempt: OrderAttempt, ttlMs: number): Promise<KeptAttempt> {
    const kept = orderState.put(this.entries, Date.now(), attempt, ttlMs);
    await this.expireBy(kept.expiresAt);
    return kept;
  }

  orderDelete(): void {
    orderState.delete(this.entries);
  }

  async orderSettle(transactionRequestId: string, update: OrderAttemptUpdate, ttlMs: number): Promise<KeptAttempt | undefined> {
    const kept = orderState.settle(this.entries, Date.now(), transactionRequestId, update, ttlMs);
    if (kept !== undefined) await this.expireBy(kept.expiresAt);
    return kept;
  }

  async indexTrack(attempt: OrderAttempt, expiresAt: number): Promise<void> {
    this.index.track(attempt, expiresAt);
    await this.expireBy(expiresAt);
  }

  indexForget(referenceOrderId: string): void {
    this.index.forget(referenceOrderId);
  }

  indexList(changedBefore: number, limit: number): OrderAttempt[] {
    return this.index.list(Date.now(), changedBefore, limit);
  }

  async eventClaim(token: string, ttlMs: number): Promise<boolean> {
    const claimed = eventState.claim(this.entries, Date.now(), token, ttlMs);
    if (claimed) await this.expireBy(Date.now() + ttlMs);
    return claimed;
  }

  eventRelease(token: string): void {
    eventState.release(this.entries, Date.now(), token);
  }

  async eventComplete(token: string | undefined, ttlMs: number): Promise<void> {
    eventState.complete(this.entries, Date.now(), token, ttlMs);
    await this.expireBy(Date.now() + ttlMs);
  }

  async eventRenew(token: string, ttlMs: number): Promise<boolean> {
    const renewed = eventState.renew(this.entries, Date.now(), token, ttlMs);
    if (renewed) await this.expireBy(Date.now() + ttlMs);
    return renewed;
  }

  eventState(): IdempotencyKeyState | undefined {
    return eventState.state(this.entries, Date.now());
  }

  /** The handled mark and the handler's writes to this object, in one storage transaction. */
  async eventCommit(token: string, ttlMs: number, writes: readonly ObjectWrite[]): Promise<CommitOutcome> {
    const now = Date.now();
    const outcome = this.ctx.storage.transactionSync(() => eventState.commit(this.entries, this.effects, now, token, ttlMs, writes));
    if (outcome === 'committed') await this.expireBy(now + ttlMs);
    return outcome;
  }

  eventEffects(): Record<string, unknown> {
    return this.effects.all();
  }

  async alarm(): Promise<void> {
    const now = Date.now();
    this.entries.deleteExpired(now);
    this.index.deleteExpired(now);
    const next = this.nextDeadline();
    if (next !== undefined) return this.ctx.storage.setAlarm(next);
    if (!this.effects.isEmpty()) return;
    // Nothing left: the object leaves no storage behind (deleteAll drops the tables too, so they are made again).
    await this.ctx.storage.deleteAll();
    this.openTables();
  }

  private openTables(): void {
    const { sql } = this.ctx.storage;
    this.entries = new ExpiringEntries(sql);
    this.index = new UnsettledIndex(sql);
    this.effects = new ObjectEffects(sql);
  }

  private nextDeadline(): number | undefined {
    const deadlines = [this.entries.nextDeadline(), this.index.nextDeadline()].filter((d): d is number => d !== undefined);
    return deadlines.length === 0 ? undefined : Math.min(...deadlines);
  }

  /** The alarm rings by `deadline` at the latest (a later one is brought forward; an earlier one re-arms itself). */
  private async expireBy(deadline: number): Promise<void> {
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > deadline) await this.ctx.storage.setAlarm(deadline);
  }
}
