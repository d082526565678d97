import { signWebhook } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, startMerchantApp, type AdapterName, type MerchantApp } from '../support/apps';
import { createAgent, send, type Answer } from '../support/http';
import { deepJsonText, edgeString, headerValue, hostileValue, jsonText, queryString } from '../support/hostile';
import { Shop, shopOptions } from '../support/shop';
import { SEED } from '../support/seed';

/**
 * Property-based hostile requests against every mounted route of every
 * adapter. Whatever arrives: never a 5xx, never a crash or an unhandled
 * rejection, every refusal in the JSON error shape, and the heap stays bounded.
 */
const RUNS_PER_ROUTE = 200;
const BODY_LIMIT = 8 * 1024;
const WEBHOOK_LIMIT = 16 * 1024;
/** After a full collection the heap may grow this much across the whole file (caches, JIT), not in proportion to what was sent. */
const HEAP_GROWTH_BOUND = 64 * 1024 * 1024;

const agent = createAgent(16);
const processFaults: unknown[] = [];
const onFault = (error: unknown) => void processFaults.push(error);
let heapBefore = 0;
let sandbox: Sandbox;
const apps = new Map<AdapterName, MerchantApp>();
const counts: Record<string, number> = {};

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  return process.memoryUsage().heapUsed;
}

beforeAll(async () => {
  process.on('unhandledRejection', onFault);
  process.on('uncaughtException', onFault);
  sandbox = await startSandbox({ allowLocalNotifyUrl: true, rateLimit: false });
  for (const adapter of ADAPTERS) {
    const shop = new Shop();
    // One real order, so hostile input can also reach the service through a valid orderId.
    shop.addOrder('known', 1000);
    let routesUrl = '';
    const app = await startMerchantApp(adapter, {
      ...shopOptions({ sandbox, shop, routesUrl: () => routesUrl, client: { timeoutMs: 3_000, retry: { maxAttempts: 1 } } }),
      bodyLimitBytes: BODY_LIMIT,
      webhook: { secret: sandbox.webhookSecret, maxBodyBytes: WEBHOOK_LIMIT },
    });
    routesUrl = app.routesUrl;
    apps.set(adapter, app);
  }
  heapBefore = heapAfterGc();
});

afterAll(async () => {
  process.off('unhandledRejection', onFault);
  process.off('uncaughtException', onFault);
  for (const app of apps.values()) await app.close();
  await sandbox?.close();
  await agent.close();
  console.info(`hostile requests by route and status: ${JSON.stringify(counts)}`);
});

const ROUTES = ['/checkout', '/wallet/config', '/wallet/pay', '/webhook'] as const;

const body = fc.oneof(
  hostileValue().map(jsonText),
  fc
    .record({ orderId: fc.oneof(fc.constant('known'), hostileValue()), token: fc.oneof(hostileValue(), edgeString(), fc.constant('{"protocolVersion":"ECv2"}')) }, { requiredKeys: [] })
    .map(jsonText),
  deepJsonText,
  fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)),
  fc.integer({ min: BODY_LIMIT, max: WEBHOOK_LIMIT * 3 }).map((n) => `{"orderId":"${'x'.repeat(n)}"}`),
  edgeString(120).map((text) => `orderId=${text}&orderId=known&token=${text}`),
  fc.constant(''),
);

const ROUTE_METHOD: Record<(typeof ROUTES)[number], string> = {
  '/checkout': 'POST',
  '/wallet/config': 'GET',
  '/wallet/pay': 'POST',
  '/webhook': 'POST',
};

/** Mostly the route's own method and a JSON content type, so most requests get past the first checks to the deeper ones. */
const requestFor = (route: (typeof ROUTES)[number]) =>
  fc.record({
    route: fc.constant(route),
    trailingSlash: fc.boolean(),
    method: fc.oneof(
      { weight: 8, arbitrary: fc.constant(ROUTE_METHOD[route]) },
      { weight: 2, arbitrary: fc.constantFrom('POST', 'GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') },
    ),
    contentType: fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          undefined,
          'application/x-www-form-urlencoded',
          'text/plain',
          'multipart/form-data; boundary=x',
          'application/json; charset=utf-16',
          'application/json; charset=nonsense',
          'application/xml',
        ),
      },
      { weight: 1, arbitrary: headerValue(40) },
    ),
    body,
    query: queryString,
    headers: fc.dictionary(
      fc.constantFrom('accept', 'x-signature', 'x-timestamp', 'x-client-request-id', 'content-encoding', 'x-forwarded-for', 'cookie', 'accept-charset'),
      fc.oneof(headerValue(), fc.constantFrom('text/html', 'gzip', 'deflate', '*/*')),
      { maxKeys: 4 },
    ),
    signed: fc.boolean(),
  });

type HostileRequest = ReturnType<typeof requestFor> extends fc.Arbitrary<infer R> ? R : never;

async function sendHostile(app: MerchantApp, input: HostileRequest): Promise<Answer> {
  const withBody = input.method !== 'GET' && input.method !== 'OPTIONS';
  const headers: Record<string, string> = { ...input.headers };
  if (input.contentType !== undefined) headers['content-type'] = input.contentType;
  // Half the webhooks carry a genuine signature over the hostile bytes: a trusted sender with a strange payload.
  if (input.route === '/webhook' && input.signed && withBody) {
    Object.assign(headers, signWebhook({ rawBody: input.body, secret: sandbox.webhookSecret }).headers);
    if (input.contentType !== undefined) headers['content-type'] = input.contentType;
  }
  const path = `${app.routesUrl}${input.route}${input.trailingSlash ? '/' : ''}${input.query ? `?${input.query}` : ''}`;
  return send(agent, path, { method: input.method, headers, ...(withBody ? { body: input.body } : {}) });
}

/** A shopper's browser posting the checkout form: a form body, and an Accept that names a page. */
const isBrowserFormPost = (input: HostileRequest) =>
  input.route === '/checkout' && /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(input.contentType ?? '') && /text\/html/i.test(input.headers['accept'] ?? '');

/**
 * The refusal shapes allowed: paymount's JSON error, its failure page for a
 * browser's form post to /checkout (where the headers ask for a page), or, on
 * NestJS only, the answer of Nest's own body parser (documented).
 */
function expectRefusalShape(adapter: AdapterName, input: HostileRequest, answer: Answer): void {
  const contentType = String(answer.headers['content-type']);
  if (isBrowserFormPost(input) && /^text\/html/.test(contentType)) {
    expect(answer.text).toMatch(/<h1>Payment could not start<\/h1>/);
    return;
  }
  expect(contentType).toMatch(/^application\/json/);
  const json = answer.json as Record<string, unknown>;
  if (adapter === 'nest' && json && 'statusCode' in json) {
    // Nest's body parser: unparseable (400), too large (413), unsupported charset or encoding (415).
    expect([400, 413, 415]).toContain(answer.status);
    expect(json.statusCode).toBe(answer.status);
    return;
  }
  expect(Object.keys(json)).toEqual(['error']);
  const error = json.error as Record<string, unknown>;
  expect(typeof error.code).toBe('string');
  expect(typeof error.message).toBe('string');
  for (const key of Object.keys(error)) expect(['code', 'message', 'traceId']).toContain(key);
}

describe('hostile requests to every mounted route', () => {
  for (const adapter of ADAPTERS) {
    for (const route of ROUTES) {
      it(`${adapter} ${route}: never 5xx, refusals in the JSON error shape`, async () => {
        const app = apps.get(adapter) as MerchantApp;
        await fc.assert(
          fc.asyncProperty(requestFor(route), async (input) => {
            const answer = await sendHostile(app, input);
            const key = `${adapter} ${route} ${answer.status}`;
            counts[key] = (counts[key] ?? 0) + 1;
            expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
            if (answer.status >= 400) expectRefusalShape(adapter, input, answer);
          }),
          { seed: SEED, numRuns: RUNS_PER_ROUTE },
        );
      });
    }
  }

  it('no unhandled rejection or uncaught exception fired, and the heap stayed bounded', () => {
    expect(processFaults).toEqual([]);
    const growth = heapAfterGc() - heapBefore;
    console.info(`heap growth after gc: ${(growth / 1024 / 1024).toFixed(1)} MiB (gc exposed: ${typeof (globalThis as { gc?: unknown }).gc === 'function'})`);
    expect(growth).toBeLessThan(HEAP_GROWTH_BOUND);
  });
});
