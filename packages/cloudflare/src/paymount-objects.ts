import type { PaymountStateMethods } from './paymount-state';

/**
 * The Durable Object namespace bound to PaymountState (`env.PAYMOUNT_STATE`),
 * as far as the stores use it. Typed loosely on purpose: the namespace types of
 * wrangler and @cloudflare/workers-types both fit.
 */
export interface PaymountStateNamespace {
  idFromName(name: string): unknown;
  get(id: never): unknown;
}

/** A stub of PaymountState: each method one RPC to the object. */
export type PaymountStateStub = {
  [K in Exclude<keyof PaymountStateMethods, 'alarm'>]: PaymountStateMethods[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/** The index object's name: one object lists the unsettled attempts of every order. */
const UNSETTLED_INDEX = 'orders:unsettled';

/**
 * Stubs of the objects the stores talk to, named as the README documents:
 * `order:<referenceOrderId>`, `event:<dedupe key>` and the unsettled index. A
 * fresh stub per call: a stub whose object was reset (or threw an overload
 * error) stays broken, and a stub is cheap to make.
 */
export class PaymountObjects {
  constructor(private readonly namespace: PaymountStateNamespace) {}

  order(referenceOrderId: string): PaymountStateStub {
    return this.named(`order:${referenceOrderId}`);
  }

  event(key: string): PaymountStateStub {
    return this.named(`event:${key}`);
  }

  unsettledIndex(): PaymountStateStub {
    return this.named(UNSETTLED_INDEX);
  }

  private named(name: string): PaymountStateStub {
    const get = this.namespace.get.bind(this.namespace) as (id: unknown) => PaymountStateStub;
    return get(this.namespace.idFromName(name));
  }
}
