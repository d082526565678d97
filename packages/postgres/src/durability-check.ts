import type { Logger } from '@paymount/core';
import type { PostgresDatabase } from './database';

/** The server settings that decide whether PostgreSQL can lose commits it acknowledged. */
export interface DurabilitySettings {
  version: string;
  fsync: string;
  synchronousCommit: string;
}

const AT_STAKE =
  'PostgreSQL can lose what the payment stores commit: order attempts and locks (an order could be charged twice) and handled webhook events with their handlers\' effects (the service does not resend an event it was told was handled)';

/** Each setting that lets the server lose acknowledged commits, with its fix; none for PGlite, whose writes go through its own file system. */
export function durabilityRisksOf(settings: DurabilitySettings): string[] {
  const risks: string[] = [];
  if (settings.fsync === 'off' && !settings.version.includes('PGlite')) {
    risks.push('fsync is off: a crash of the machine can lose or corrupt committed rows; set `fsync = on`');
  }
  if (settings.synchronousCommit === 'off') {
    risks.push('synchronous_commit is off: a server crash loses the last commits it acknowledged; set `synchronous_commit = on` (server, database or role)');
  }
  return risks;
}

const checked = new WeakSet<PostgresDatabase>();

/**
 * Reads the settings once per database and warns, once, about any that can
 * lose acknowledged commits. Never throws: a store works without the check.
 */
export async function checkDurabilityOnce(db: PostgresDatabase, logger: Logger): Promise<void> {
  if (checked.has(db)) return;
  checked.add(db);
  try {
    const { rows } = await db.query<{ version: string; fsync: string; synchronous_commit: string }>(
      "SELECT version() AS version, current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS synchronous_commit",
    );
    const row = rows[0];
    if (row === undefined) return;
    const risks = durabilityRisksOf({ version: row.version, fsync: row.fsync, synchronousCommit: row.synchronous_commit });
    if (risks.length > 0) logger.warn(`${AT_STAKE}. ${risks.join('. ')}.`);
  } catch (error) {
    logger.debug({ err: error }, 'Postgres stores: the durability settings could not be read');
  }
}
