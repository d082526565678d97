import type { QueuedAppConfig } from './queued-app';

export interface HandlerBehaviour {
  /** How long the handler works. */
  handlerMs: number;
  /** Where its effect falls: before the work (so a kill mid-work comes after it) or after. */
  effectAt: 'start' | 'end';
  /** Fail while `<namespace>:t:broken` exists (a dependency that is down). */
  failWhileBroken?: boolean;
  /**
   * Write the effect as a row of SHIPMENTS_TABLE through the event's transaction (`ctx.db`, the app's
   * `postgresUrl` stores), as @paymount/postgres's README shows, instead of in Redis.
   */
  transactional?: boolean;
}

export interface MerchantProcessConfig {
  app: QueuedAppConfig;
  behaviour: HandlerBehaviour;
}

export type ProcessMessage =
  | { kind: 'listening'; routesUrl: string | undefined }
  | { kind: 'started'; key: string; pid: number }
  /** The run's effect is written (in a transactional run: not committed yet). */
  | { kind: 'wrote'; key: string; pid: number };

/** The merchant's own table a transactional handler writes to: one row per run that committed. */
export const SHIPMENTS_TABLE = 'merchant_shipments';

/**
 * The Redis keys the handler records in, by event key: runs, plain effects, the process of the keyed
 * effect, of the first run, and of the first run during which Redis went away.
 */
export function recordKeys(namespace: string) {
  return {
    runs: `${namespace}:t:runs`,
    effects: `${namespace}:t:effects`,
    keyed: `${namespace}:t:keyed`,
    firstRun: `${namespace}:t:first-run`,
    duringOutage: `${namespace}:t:during-outage`,
    broken: `${namespace}:t:broken`,
  };
}
