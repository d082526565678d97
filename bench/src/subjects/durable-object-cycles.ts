// The Worker of the durable-object-stores figure, served by workerd (tools/workerd.ts): storeCycle through
// durableObjectStores(), or the same RPCs to the same objects each doing bare storage reads and writes. A request
// runs cycles with `inFlight` at a time for `durationMs` and answers how many it finished; Node times the request.
import { durableObjectStores, PaymountState as StoresState, type PaymountStateNamespace } from '@paymount/cloudflare';
import { storeCycle, TTL_MS } from './store-cycle';

/** The async key-value API of a SQLite-backed object's storage, which PaymountState's own types leave out. */
interface KvStorage {
  get(name: string): Promise<unknown>;
  put(name: string, value: unknown): Promise<void>;
  delete(name: string): Promise<boolean>;
}

/** PaymountState as bound here, plus one bare storage operation per RPC: the baseline's side of the pair. */
export class PaymountState extends StoresState {
  // The class's public type leaves out DurableObject's `ctx` (so that it needs no Workers types); it is there.
  private get kv(): KvStorage {
    return (this as unknown as { ctx: { storage: KvStorage } }).ctx.storage;
  }

  bareRead(name: string): Promise<unknown> {
    return this.kv.get(name);
  }

  bareWrite(name: string, value: unknown): Promise<void> {
    return this.kv.put(name, value);
  }

  /** A read and a write in one RPC, as each of the stores' check-and-sets is. */
  async bareSwap(name: string, value: unknown): Promise<unknown> {
    const before = await this.kv.get(name);
    await this.kv.put(name, value);
    return before;
  }

  async bareTake(name: string): Promise<unknown> {
    const before = await this.kv.get(name);
    await this.kv.delete(name);
    return before;
  }
}

type BareStub = Pick<PaymountState, 'bareRead' | 'bareWrite' | 'bareSwap' | 'bareTake'>;

interface Env {
  PAYMOUNT_STATE: PaymountStateNamespace;
}

/**
 * The RPCs storeCycle makes through the stores (11: the order's lock, get, two puts, settle and unlock, the
 * index's three copies, the event's claim and mark), each made to the same object doing what the store's method
 * does to storage, without the checks: a read and a write, a write, or a read and a delete.
 */
async function bareCycle(env: Env, key: string): Promise<void> {
  const named = (name: string) => env.PAYMOUNT_STATE.get(env.PAYMOUNT_STATE.idFromName(name) as never) as unknown as BareStub;
  const order = named(`order:${key}`);
  const index = named('orders:unsettled');
  const event = named(`event:event-${key}`);
  const until = Date.now() + TTL_MS;
  await order.bareSwap('lock', { token: key, until });
  await order.bareRead('attempt');
  await order.bareWrite('attempt', { state: 'pending', until });
  await index.bareWrite(key, { state: 'pending', until });
  await order.bareWrite('attempt', { state: 'succeeded', until });
  await index.bareWrite(key, { state: 'succeeded', until });
  await order.bareSwap('attempt', { state: 'succeeded', handled: true, until });
  await index.bareWrite(key, { state: 'succeeded', handled: true, until });
  await order.bareTake('lock');
  await event.bareSwap('claim', { state: 'processing', until });
  await event.bareSwap('claim', { state: 'done', until });
}

let next = 0;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const side = url.searchParams.get('side');
    const inFlight = Number(url.searchParams.get('inFlight') ?? '1');
    const durationMs = Number(url.searchParams.get('durationMs') ?? '1000');
    const stores = durableObjectStores(env.PAYMOUNT_STATE);
    const cycle = side === 'paymount' ? (key: string) => storeCycle(stores, key) : (key: string) => bareCycle(env, key);
    // workerd's clock moves on I/O, which each cycle does: it tells when to stop, Node's clock measures.
    const end = Date.now() + durationMs;
    let cycles = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (Date.now() < end) {
          await cycle(`${side}-${(next += 1)}`);
          cycles += 1;
        }
      }),
    );
    return Response.json({ cycles });
  },
};
