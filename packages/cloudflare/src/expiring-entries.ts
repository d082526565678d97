import type { SqlStorage } from './workers-types';

interface EntryRow {
  value: string;
  expires_at: number;
}

/**
 * An object's paymount state: named values, each with the deadline after which
 * it is gone. Every read checks the deadline (the alarm that deletes expired
 * rows may come late, or not at all after a reset), so correctness never waits
 * for the alarm. All calls are synchronous SQL: a method that reads and writes
 * without awaiting in between is atomic in the object.
 */
export class ExpiringEntries {
  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS paymount_entries (name TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER NOT NULL)');
  }

  /** The live value of `name` at `now`, with its deadline. */
  read(name: string, now: number): EntryRow | undefined {
    const [row] = this.sql.exec<EntryRow>('SELECT value, expires_at FROM paymount_entries WHERE name = ?', name).toArray();
    return row !== undefined && row.expires_at > now ? row : undefined;
  }

  /** Like read(), also when the deadline has passed: what a lapsed claim still says about who held it. */
  readAny(name: string): EntryRow | undefined {
    return this.sql.exec<EntryRow>('SELECT value, expires_at FROM paymount_entries WHERE name = ?', name).toArray()[0];
  }

  write(name: string, value: string, expiresAt: number): void {
    this.sql.exec(
      'INSERT INTO paymount_entries (name, value, expires_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at',
      name,
      value,
      expiresAt,
    );
  }

  delete(name: string): void {
    this.sql.exec('DELETE FROM paymount_entries WHERE name = ?', name);
  }

  deleteExpired(now: number): void {
    this.sql.exec('DELETE FROM paymount_entries WHERE expires_at <= ?', now);
  }

  /** The earliest deadline still ahead, for the object's alarm. */
  nextDeadline(): number | undefined {
    const [row] = this.sql.exec<{ next: number | null }>('SELECT MIN(expires_at) AS next FROM paymount_entries').toArray();
    return row?.next ?? undefined;
  }
}
