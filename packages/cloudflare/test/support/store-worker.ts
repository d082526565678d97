// The Worker the expiry test drives from Node, as alarms fire on their own time: `POST /` with
// `{ instance, store, method, args }` runs one call of durableObjectStores() here, in workerd, on real Durable
// Objects and D1, and answers its result; `POST /object` shows what an object keeps.
import { durableObjectStores, type D1Database, type DurableObjectStores, type PaymountStateNamespace } from '../../src/index';
import { PaymountState as StoresState } from '../../src/paymount-state';

/** The class as bound here: PaymountState, plus a look at what an object keeps, for the expiry test. */
export class PaymountState extends StoresState {
  async storedForTest(): Promise<{ rows: number; alarm: number | null }> {
    const count = (table: string) => this.ctx.storage.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).toArray()[0]?.n ?? 0;
    return { rows: count('paymount_entries') + count('paymount_unsettled') + count('paymount_effects'), alarm: await this.ctx.storage.getAlarm() };
  }
}

interface Env {
  PAYMOUNT_STATE: PaymountStateNamespace;
  DB: D1Database;
}

/** `POST /object` with `{ name }`: what the object of that name keeps (storedForTest). */
export interface ObjectLook {
  name: string;
}

export interface StoreCall {
  /** Which stores of the test process: each instance is one durableObjectStores(), as one isolate's routes make. */
  instance: string;
  store: keyof DurableObjectStores;
  method: string;
  args: unknown[];
}

/** One durableObjectStores() per instance the test made: a test run makes a few hundred at most. */
const instances = new Map<string, DurableObjectStores>();

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (new URL(request.url).pathname === '/object') {
      const { name } = (await request.json()) as ObjectLook;
      const stub = env.PAYMOUNT_STATE.get(env.PAYMOUNT_STATE.idFromName(name) as never) as { storedForTest(): Promise<unknown> };
      return Response.json(await stub.storedForTest());
    }
    const call = (await request.json()) as StoreCall;
    let stores = instances.get(call.instance);
    if (stores === undefined) instances.set(call.instance, (stores = durableObjectStores(env.PAYMOUNT_STATE, { d1: env.DB })));
    const store = stores[call.store] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    try {
      return Response.json({ result: await store[call.method]!(...call.args) });
    } catch (error) {
      return Response.json({ error: error instanceof Error ? error.message : String(error) }, { status: 500 });
    }
  },
};
