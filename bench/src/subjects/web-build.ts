import { createFetchTransport, createPaymentClient, verifyWebhook } from '@paymount/core';
import { CREATE_SESSION_PATH, CREDENTIALS, ORDERS, sessionFieldsOf, WEBHOOK_SECRET } from '../fixtures/shop';
import { deliveryHeaders, PAYLOAD_BYTES, webhookPayload } from '../fixtures/webhook-delivery';
import { childArgs, serveHarness } from '../harness/child-side';
import { runClosedLoop, runTimedLoop, type ClosedLoopOptions } from '../harness/closed-loop';
import { createSessionOnFetch, createSessionOnTimedFetch, handWrittenCall, sessionOf } from './handwritten/create-session';
import { importWebhookKey, verifyBareWebCrypto } from './handwritten/webhook-verify';

/**
 * @paymount/core's web build (Web Crypto and fetch, what Bun, Deno, workerd
 * and the edge runtime load) in Node: figures/web-build.ts starts this process
 * with `--conditions=worker`, which package.json's exports map sends to
 * dist/web. Each side against its bare Web API counterpart, in the same kind of process.
 */
export type WebBuildSide = 'paymount-fetch' | 'fetch-transport' | 'fetch' | 'fetch-with-timeout' | 'paymount-web-verify' | 'bare-web-verify';

/** The bare timed call's limit: never reached by the stub, as paymount's per-attempt timeout is not. */
const BARE_TIMEOUT_MS = 30_000;

const order = ORDERS.get('order-0001')!;

serveHarness(async (): Promise<{ ready: { side: WebBuildSide; bytes?: number }; handle: (request: unknown) => Promise<unknown> }> => {
  // A figure of the Node build would mean nothing here.
  const resolved = import.meta.resolve('@paymount/core');
  if (!resolved.includes('/dist/web/')) throw new Error(`@paymount/core resolved to ${resolved}, not its web build: start with --conditions=worker`);
  const { side, upstream, connections } = childArgs<{ side: WebBuildSide; upstream?: string; connections: number }>();
  // The caller sides are the ones given a service to call; the verify sides call nothing.
  if (upstream !== undefined) {
    const client = createPaymentClient({ ...CREDENTIALS, baseUrl: upstream, localDevelopment: true });
    const input = sessionFieldsOf(order);
    const transport = createFetchTransport({ baseUrl: upstream });
    /** The bare calls' request and envelope check, sent through paymount's fetch transport alone. */
    const sendThroughTransport = async () => {
      const { headers, body } = handWrittenCall(order);
      const answer = await transport.send('POST', CREATE_SESSION_PATH, headers, body, { timeoutMs: BARE_TIMEOUT_MS });
      return sessionOf(JSON.parse(answer.body) as Parameters<typeof sessionOf>[0]);
    };
    const ops: Record<string, () => Promise<boolean>> = {
      fetch: async () => (await createSessionOnFetch(upstream, order)).checkoutUrl.length > 0,
      'fetch-transport': async () => (await sendThroughTransport()).checkoutUrl.length > 0,
      'fetch-with-timeout': async () => (await createSessionOnTimedFetch(upstream, order, BARE_TIMEOUT_MS)).checkoutUrl.length > 0,
      'paymount-fetch': async () => (await client.createCheckoutSession(input)).checkoutUrl.length > 0,
    };
    const op = ops[side];
    if (op === undefined) throw new Error(`web-build: ${side} is not a caller side`);
    return {
      ready: { side },
      handle: (request) => runClosedLoop({ ...(request as Omit<ClosedLoopOptions, 'op' | 'concurrency'>), concurrency: connections, op }),
    };
  }
  const raw = new Uint8Array(webhookPayload(1, PAYLOAD_BYTES));
  const headers = deliveryHeaders(Buffer.from(raw), WEBHOOK_SECRET, 'dlv_micro', Date.now());
  const signature = headers['x-signature']!;
  const key = await importWebhookKey(WEBHOOK_SECRET);
  const op =
    side === 'bare-web-verify'
      ? () => verifyBareWebCrypto(raw, signature, key)
      : () => verifyWebhook({ rawBody: raw, headers, secret: WEBHOOK_SECRET });
  // Both must accept the delivery, or the figure would compare a failure path.
  if ((await op()) === undefined) throw new Error(`${side} refused the delivery`);
  return {
    ready: { side, bytes: raw.byteLength },
    handle: (request) => {
      const { durationMs, maxOps } = request as { durationMs: number; maxOps: number };
      return runTimedLoop({ async: op }, durationMs, maxOps);
    },
  };
});
