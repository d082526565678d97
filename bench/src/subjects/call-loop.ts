import { createInterface } from 'node:readline';
import { createPaymentClient } from '@paymount/core';
import { CREDENTIALS, ORDERS, sessionFieldsOf } from '../fixtures/shop';
import { callers, type ClientSide } from './client-calls';
import { createSessionOnTimedFetch } from './handwritten/create-session';

/**
 * Not a harness child: run under valgrind by harness/callgrind.ts, it makes
 * WARMUP calls (20 in flight) against UPSTREAM on one side (SIDE), prints
 * `warm` and waits for a line on stdin, makes OPS calls, prints `done`, and
 * exits when stdin ends: the count is taken between the two.
 * SIDE is one of the client caller's sides, or one of the two fetch sides
 * below; those run with --conditions=worker, so paymount's is @paymount/core's
 * web build, the fetch transport.
 */
const { SIDE, WARMUP, OPS, UPSTREAM } = process.env;
const upstream = UPSTREAM!;
const order = ORDERS.get('order-0001')!;
/**
 * Every side's time limits, the bare timed call's and paymount's alike. Under valgrind, 20 calls in
 * flight on a busy machine passed paymount's default 30 s per attempt (the instructions group failed
 * on it). A limit's value costs no instruction, only setting it does, so each side gets one far out
 * of valgrind's reach and the count is what it was.
 */
const LIMITS = { timeoutMs: 600_000, deadlineMs: 600_000 };
const IN_FLIGHT = 20;

function callOf(side: string | undefined): () => Promise<unknown> {
  if (side === 'paymount-fetch') {
    const client = createPaymentClient({ ...CREDENTIALS, baseUrl: upstream, localDevelopment: true, ...LIMITS });
    const input = sessionFieldsOf(order);
    return () => client.createCheckoutSession(input);
  }
  if (side === 'fetch-with-timeout') return () => createSessionOnTimedFetch(upstream, order, LIMITS.timeoutMs);
  if (side !== undefined && side in callers) return callers[side as ClientSide](upstream, IN_FLIGHT, LIMITS);
  throw new Error(`call-loop: unknown SIDE ${side}`);
}

async function makeCalls(count: number): Promise<void> {
  let left = count;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (left-- > 0) await call();
    }),
  );
}

const input = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const call = callOf(SIDE);
await makeCalls(Number(WARMUP));
console.log('warm');
await input.next();
await makeCalls(Number(OPS));
console.log('done');
await input.next();
process.exit(0);
