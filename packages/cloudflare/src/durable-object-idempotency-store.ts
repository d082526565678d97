import { ClaimLostError, type IdempotencyKeyState, type IdempotencyStore } from '@paymount/core';
import type { D1Marks } from './d1-marks';
import { EventCommit } from './event-commit';
import type { CommitOutcome } from './event-state';
import type { PaymountObjects } from './paymount-objects';

/** Tries of the mark's commit: a reset object fails the first RPC, and a commit is safe to repeat (it answers 'already-committed'). */
const COMMIT_TRIES = 3;

/**
 * An IdempotencyStore on Durable Objects: each event's claim and mark live in
 * the event's own object, with a token that marks the claim as this store's,
 * so `release`, `renew` and the mark touch the key only while that claim holds
 * it. `runHandled` makes handler effects exactly-once: the handlers get an
 * EventCommit as `ctx.db`, and what they queued commits with the mark (D1
 * statements in one batch with a mark in D1; object writes in one storage
 * transaction with the mark in the object).
 */
export class DurableObjectIdempotencyStore implements IdempotencyStore {
  /** The token of each claim this store holds: gone at release, completion or the mark, so it holds only claims in flight here. */
  private readonly held = new Map<string, string>();

  constructor(
    private readonly objects: PaymountObjects,
    private readonly d1: D1Marks | undefined,
  ) {}

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const token = crypto.randomUUID();
    const claimed = await this.objects.event(key).eventClaim(token, ttlMs);
    if (claimed) this.held.set(key, token);
    return claimed;
  }

  async release(key: string): Promise<void> {
    const token = this.held.get(key);
    this.held.delete(key);
    if (token !== undefined) await this.objects.event(key).eventRelease(token);
  }

  async complete(key: string, ttlMs: number): Promise<void> {
    const token = this.held.get(key);
    this.held.delete(key);
    await this.objects.event(key).eventComplete(token, ttlMs);
  }

  async renew(key: string, ttlMs: number): Promise<boolean> {
    const token = this.held.get(key);
    return token !== undefined && (await this.objects.event(key).eventRenew(token, ttlMs));
  }

  state(key: string): Promise<IdempotencyKeyState | undefined> {
    return this.objects.event(key).eventState();
  }

  /** What handlers of the event `key` put into its object (EventCommit.put), kept after its mark expires. */
  effectsOf(key: string): Promise<Record<string, unknown>> {
    return this.objects.event(key).eventEffects();
  }

  /**
   * Runs `handle` with an EventCommit, then commits what it queued with the
   * mark of `key` for `ttlMs`: first the D1 statements in one batch with the
   * D1 mark, then the object writes with the object's mark. When `handle`
   * throws, nothing is written. When the D1 mark is already there (an earlier
   * run committed, and its object's mark was lost), the batch rolls back and
   * the event counts as handled. When another delivery took the claim over,
   * the object writes are dropped and this rejects with ClaimLostError.
   */
  async runHandled<T>(key: string, ttlMs: number, handle: (commit: EventCommit) => Promise<T>): Promise<T> {
    const token = this.held.get(key);
    if (token === undefined) throw ClaimLostError.notHeld(key);
    const commit = new EventCommit(key, this.d1 !== undefined);
    const handled = await handle(commit);
    if (this.d1 !== undefined && commit.statements.length > 0) await this.commitD1(key, ttlMs, commit);
    const outcome = await this.commitObject(key, token, ttlMs, commit);
    this.held.delete(key);
    // Its D1 statements, if any, committed with the D1 mark, which the other delivery's batch then finds.
    if (outcome === 'claim-lost') throw ClaimLostError.takenOver(key, "dropped from the event's object");
    return handled;
  }

  private async commitD1(key: string, ttlMs: number, commit: EventCommit): Promise<void> {
    const marks = this.d1 as D1Marks;
    try {
      await marks.commit(key, ttlMs, commit.statements);
    } catch (error) {
      if (!(await marks.has(key).catch(() => false))) throw error;
    }
  }

  private async commitObject(key: string, token: string, ttlMs: number, commit: EventCommit): Promise<CommitOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.objects.event(key).eventCommit(token, ttlMs, commit.writes);
      } catch (error) {
        if (attempt >= COMMIT_TRIES) throw error;
      }
    }
  }
}
