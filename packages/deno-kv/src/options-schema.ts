import * as z from 'zod/mini';
import type { KvLike } from './kv';

const hasMethods = (value: unknown, methods: readonly string[]) =>
  typeof value === 'object' && value !== null && methods.every((m) => typeof (value as Record<string, unknown>)[m] === 'function');

export const kvSchema = z.custom<KvLike>(
  (value) => hasMethods(value, ['get', 'list', 'atomic']),
  'must be a Deno.Kv: `await Deno.openKv()` on Deno Deploy, `await Deno.openKv(path)` locally',
);

const keyPart = z.union(
  [z.string(), z.number().check(z.refine(Number.isFinite, 'must be a finite number')), z.bigint(), z.boolean(), z.instanceof(Uint8Array)],
  'must be a Deno KV key part: a string, number, bigint, boolean or Uint8Array',
);

export const denoKvStoresOptionsSchema = z.strictObject({
  keyPrefix: z.optional(z.array(keyPart).check(z.minLength(1, 'must hold at least one key part, so the stores keep to their own keys'))),
  clock: z.optional(z.custom<{ now(): number }>((value) => hasMethods(value, ['now']), 'must be an object with now() giving milliseconds since the epoch')),
});
