import type { Logger } from '@paymount/core';

export const MAX_ORPHANED_CLAIMS = 10_000;

/**
 * Claims this process may have left in Redis without knowing: a SET or a
 * release whose answer was lost with the connection. Each is undone (deleted
 * if it still holds our token) when the connection is ready again. Bounded:
 * past the limit the oldest are forgotten and simply expire with their TTL.
 */
export class OrphanedClaims {
  private readonly pending = new Map<string, string>();
  private undoing = false;

  constructor(
    private readonly releaseIfOwned: (key: string, token: string) => Promise<unknown>,
    private readonly logger: Logger,
    private readonly maxEntries = MAX_ORPHANED_CLAIMS,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  add(key: string, token: string): void {
    this.pending.delete(key);
    if (this.pending.size >= this.maxEntries) {
      const oldest = this.pending.keys().next();
      if (!oldest.done) this.pending.delete(oldest.value);
    }
    this.pending.set(key, token);
  }

  /** Undoes every pending claim once; those that fail again stay for the next reconnect. */
  async undo(): Promise<void> {
    if (this.undoing || this.pending.size === 0) return;
    this.undoing = true;
    try {
      for (const [key, token] of [...this.pending]) {
        try {
          const deleted = await this.releaseIfOwned(key, token);
          if (this.pending.get(key) === token) this.pending.delete(key);
          if (deleted === 1) this.logger.info({ key }, 'redis store: freed a claim left by a lost connection');
        } catch (error) {
          this.logger.debug({ key, err: error }, 'redis store: could not free a claim yet');
          return;
        }
      }
    } finally {
      this.undoing = false;
    }
  }
}
