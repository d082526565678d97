import { describeIdempotencyStoreContract } from '../../../../tools/idempotency-store-contract';
import { describeOrderAttemptStoreContract } from '../../../../tools/order-store-contract';
import { denoKvStores } from '../../src';
import { drivenClock, localKv } from './local-kv';

// Run by Deno (vitest.deno.config.ts): the stores on Deno's own KV, each "instance" a store of its own (its own claims and tokens) on one connection.
const kv = localKv();

describeOrderAttemptStoreContract('Deno KV', {
  async create() {
    return denoKvStores(await kv.open()).orders;
  },
  async stores(count) {
    return Promise.all(Array.from({ length: count }, async () => denoKvStores(await kv.open()).orders));
  },
});

const clock = drivenClock();

describeIdempotencyStoreContract('Deno KV', {
  async create() {
    return denoKvStores(await kv.open(), { clock }).idempotency;
  },
  async instances() {
    return [denoKvStores(await kv.open(), { clock }).idempotency, denoKvStores(await kv.open(), { clock }).idempotency];
  },
  async elapse(ms) {
    clock.elapse(ms);
  },
});
