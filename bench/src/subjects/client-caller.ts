import { Agent as HttpAgent } from 'node:http';
import { createPaymentClient } from '@paymount/core';
import axios from 'axios';
import { Pool } from 'undici';
import { CREATE_SESSION_PATH, CREDENTIALS, ORDERS, sessionFieldsOf } from '../fixtures/shop';
import { childArgs, serveHarness } from '../harness/child-side';
import { runClosedLoop, type ClosedLoopOptions } from '../harness/closed-loop';
import { createSessionOnUndici, handWrittenCall, sessionOf } from './handwritten/create-session';

export type ClientSide = 'paymount' | 'undici' | 'axios';

const order = ORDERS.get('order-0001')!;

/** One create-session call per side, each the way its author would write it. */
const callers: Record<ClientSide, (upstream: string, connections: number) => () => Promise<boolean>> = {
  paymount(upstream) {
    const client = createPaymentClient({ ...CREDENTIALS, baseUrl: upstream, localDevelopment: true });
    const input = sessionFieldsOf(order);
    return async () => (await client.createCheckoutSession(input)).checkoutUrl.length > 0;
  },
  undici(upstream, connections) {
    const pool = new Pool(upstream, { connections });
    return async () => (await createSessionOnUndici(pool, upstream, order)).checkoutUrl.length > 0;
  },
  axios(upstream, connections) {
    const http = axios.create({ baseURL: upstream, httpAgent: new HttpAgent({ keepAlive: true, maxSockets: connections }) });
    return async () => {
      const { headers, body } = handWrittenCall(order);
      const response = await http.post(CREATE_SESSION_PATH, body, { headers });
      return sessionOf(response.data as Parameters<typeof sessionOf>[0]).checkoutUrl.length > 0;
    };
  },
};

/** A process that only calls the upstream stub: the client under test is what it spends its time in. */
serveHarness(async () => {
  const { side, upstream, connections } = childArgs<{ side: ClientSide; upstream: string; connections: number }>();
  const op = callers[side](upstream, connections);
  return {
    ready: { side },
    handle: (request) => runClosedLoop({ ...(request as Omit<ClosedLoopOptions, 'op' | 'concurrency'>), concurrency: connections, op }),
  };
});
