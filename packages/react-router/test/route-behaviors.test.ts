import type { OrderLookupContext } from '@paymount/core';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureConsole, startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { freshOrderId, resolveConformanceOrder } from '../../../tools/conformance/fixtures';
import { postRaw, send } from '../../../tools/conformance/http';
import type { PaymentRouteArgs, PaymentRouteOptions } from '../src';
import { serveConformanceBuild, type ServedBuild } from './support/serve-build';

// What the route does beside the conformance suite, on the conformance app's production build (test/conformance-app).
let fixture: AdapterFixture;
let app: ServedBuild;
const contexts: unknown[] = [];
/** What the routes logged, one JSON line each. */
const logLines: string[] = [];
const keep = (fields: object | string, msg?: string) => void logLines.push(`${JSON.stringify(fields)} ${msg ?? ''}`);
let factoryCalls = 0;
let factoryFails = true;
let served: Parameters<typeof serveConformanceBuild> | undefined;

beforeAll(async () => {
  fixture = await startAdapterFixture();
  const options: PaymentRouteOptions = {
    ...(fixture.options as PaymentRouteOptions),
    logger: { debug: keep, info: keep, warn: keep, error: keep },
    resolveOrder: (orderId: string, ctx: OrderLookupContext<PaymentRouteArgs>) => {
      contexts.push(ctx.context);
      return resolveConformanceOrder(orderId);
    },
  };
  served = [
    options,
    async () => {
      factoryCalls++;
      if (factoryFails) throw new Error('PAYMENT_API_KEY is not set');
      return options;
    },
  ];
  app = await serveConformanceBuild(...served);
});

afterAll(async () => {
  await app?.close();
  await fixture?.close();
});

describe('ctx.context', () => {
  it("is the loader's args: the request, the splat's params, and the server's load context", async () => {
    const orderId = freshOrderId();
    const res = await send(`${app.origin}/conformance/wallet/config?orderId=${orderId}`);
    expect(res.status).toBe(200);
    const args = contexts.at(-1) as PaymentRouteArgs;
    expect(args.request).toBeInstanceOf(Request);
    expect(args.request.url).toBe(`${app.origin}/conformance/wallet/config?orderId=${orderId}`);
    expect(args.params).toEqual({ '*': 'wallet/config' });
    // future.v8_middleware: a RouterContextProvider.
    expect(typeof (args.context as { get?: unknown }).get).toBe('function');
  });
});

describe('a body read before the route', () => {
  it("by a route middleware: the webhook answers 500 BODY_ALREADY_CONSUMED, no handler runs, and the log says the fix in React Router's words", async () => {
    const transactionId = `TX-consumed-${freshOrderId()}`;
    const delivery = fixture.delivery(transactionId);
    const res = await postRaw(`${app.origin}/consumed/webhook`, delivery.body, delivery.headers);
    expect(res.status).toBe(500);
    expect(res.json).toMatchObject({ error: { code: 'BODY_ALREADY_CONSUMED' } });
    expect(fixture.events.filter((event) => event.transactionId === transactionId)).toEqual([]);
    const logged = logLines.find((line) => line.includes('BODY_ALREADY_CONSUMED'));
    expect(logged).toContain('await request.clone().formData()');
    expect(logged).toContain("pathname.startsWith('/payments/')");
  });

  it('by a middleware that reads request.clone(), as the fix says: the webhook is verified and handled once', async () => {
    const transactionId = `TX-cloned-${freshOrderId()}`;
    const delivery = fixture.delivery(transactionId);
    const res = await postRaw(`${app.origin}/cloned/webhook`, delivery.body, delivery.headers);
    expect(res.json).toEqual({ received: true });
    expect(fixture.events.filter((event) => event.transactionId === transactionId)).toHaveLength(1);
  });

  it('drained by a body parser of a custom Express server: the route gets an empty body, so the webhook answers 400 and no handler runs', async () => {
    if (!served) throw new Error('the app did not start');
    // The same build and options, behind the parser.
    const parsed = await serveConformanceBuild(served[0], served[1], (server) => server.use(express.json()));
    try {
      const transactionId = `TX-parsed-${freshOrderId()}`;
      const delivery = fixture.delivery(transactionId);
      const webhook = await postRaw(`${parsed.origin}/conformance/webhook`, delivery.body, delivery.headers);
      expect([webhook.status, webhook.json]).toMatchObject([400, { error: { code: 'WEBHOOK_BAD_SIGNATURE' } }]);
      expect(fixture.events.filter((event) => event.transactionId === transactionId)).toEqual([]);
      const checkout = await postRaw(`${parsed.origin}/conformance/checkout`, JSON.stringify({ orderId: freshOrderId() }), { 'content-type': 'application/json' });
      expect([checkout.status, checkout.json]).toMatchObject([400, { error: { code: 'INVALID_JSON' } }]);
    } finally {
      await parsed.close();
    }
  });
});

describe('where the route sits', () => {
  it('on a route without a splat: every request answers 500, and the log names the fix', async () => {
    const captured = captureConsole();
    try {
      const res = await postRaw(`${app.origin}/misplaced`, '{}', { 'content-type': 'application/json' });
      expect(res.status).toBe(500);
      expect(res.json).toMatchObject({ error: { code: 'INTERNAL_ERROR' } });
      expect(captured.paymount().join('\n')).toContain("route('payments/*', 'routes/payments.$.ts')");
    } finally {
      captured.restore();
    }
  });

  it('a path under the splat that is no payment route, or the splat left empty, answers a plain 404', async () => {
    for (const path of ['/conformance/nowhere', '/conformance/', '/conformance/wallet']) {
      const res = await send(`${app.origin}${path}`);
      expect([path, res.status, res.text]).toEqual([path, 404, 'Not Found']);
    }
  });
});

describe('paymentRoute((args) => options)', () => {
  it('answers 500 while the function throws, logging why, then serves once it makes options, calling it no more', async () => {
    const captured = captureConsole();
    try {
      const failed = await send(`${app.origin}/lazy/wallet/config?orderId=${freshOrderId()}`);
      expect(failed.status).toBe(500);
      expect(captured.paymount().join('\n')).toContain('paymentRoute((args) => options)');
    } finally {
      captured.restore();
    }
    factoryFails = false;
    for (let i = 0; i < 2; i++) expect((await send(`${app.origin}/lazy/wallet/config?orderId=${freshOrderId()}`)).status).toBe(200);
    expect(factoryCalls).toBe(2);
  });
});
