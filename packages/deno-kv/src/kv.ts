// The few parts of Deno.Kv the stores call, declared here so that the package
// type-checks and builds on Node without Deno's lib: a real Deno.Kv (from
// Deno.openKv() or Deno Deploy) satisfies them as it is.

export type KvKeyPart = Uint8Array | string | number | bigint | boolean | symbol;
export type KvKey = readonly KvKeyPart[];

/** One key's value and versionstamp; both null when the key is absent. */
export interface KvEntryMaybe<T> {
  key: KvKey;
  value: T | null;
  versionstamp: string | null;
}

export interface KvEntry<T> {
  key: KvKey;
  value: T;
  versionstamp: string;
}

/** A Deno KV atomic operation: the checks and mutations the stores (and a handler, through KvEventWrites) add before one commit. */
export interface KvAtomic {
  check(...checks: { key: KvKey; versionstamp: string | null }[]): this;
  set(key: KvKey, value: unknown, options?: { expireIn?: number }): this;
  delete(key: KvKey): this;
  sum(key: KvKey, n: bigint): this;
  min(key: KvKey, n: bigint): this;
  max(key: KvKey, n: bigint): this;
  enqueue(value: unknown, options?: { delay?: number; keysIfUndelivered?: KvKey[]; backoffSchedule?: number[] }): this;
  commit(): Promise<{ ok: true; versionstamp: string } | { ok: false }>;
}

/** What the stores use of a `Deno.Kv`. */
export interface KvLike {
  get<T = unknown>(key: KvKey): Promise<KvEntryMaybe<T>>;
  list<T = unknown>(selector: { prefix: KvKey }, options?: { batchSize?: number }): AsyncIterable<KvEntry<T>>;
  atomic(): KvAtomic;
}
