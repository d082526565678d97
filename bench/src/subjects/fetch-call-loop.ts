import { createPaymentClient } from '@paymount/core';
import { CREDENTIALS, ORDERS, sessionFieldsOf } from '../fixtures/shop';
import { createSessionOnFetch } from './handwritten/create-session';

/**
 * Not a harness child: run whole under valgrind by figures/fetch-instructions.ts,
 * it makes OPS create-session calls (20 in flight) against UPSTREAM on one side
 * (SIDE) and exits. Started with --conditions=worker, so paymount's side is
 * @paymount/core's web build, the fetch transport.
 */
const { SIDE, OPS, UPSTREAM } = process.env;
const upstream = UPSTREAM!;
const order = ORDERS.get('order-0001')!;
/** The bare timed call's limit: never reached by the stub, as paymount's per-attempt timeout is not. */
const BARE_TIMEOUT_MS = 30_000;
const IN_FLIGHT = 20;

function callOf(side: string | undefined): () => Promise<unknown> {
  if (side === 'paymount-fetch') {
    const client = createPaymentClient({ ...CREDENTIALS, baseUrl: upstream, localDevelopment: true });
    const input = sessionFieldsOf(order);
    return () => client.createCheckoutSession(input);
  }
  if (side === 'fetch-with-timeout') return () => createSessionOnFetch(upstream, order, AbortSignal.timeout(BARE_TIMEOUT_MS));
  throw new Error(`fetch-call-loop: unknown SIDE ${side}`);
}

const call = callOf(SIDE);
let left = Number(OPS);
await Promise.all(
  Array.from({ length: IN_FLIGHT }, async () => {
    while (left-- > 0) await call();
  }),
);
