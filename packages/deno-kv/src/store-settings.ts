import type { KvKey } from './kv';

/** What both stores are made with by denoKvStores. */
export interface StoreSettings {
  /** The first parts of every key the stores write. */
  keyPrefix: KvKey;
  /** The clock of leases and expiry. */
  clock: { now(): number };
}
