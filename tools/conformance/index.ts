import type { PaymentEvent, PaymentRoutesOptions } from '@paymount/core';
import { startSandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCases } from './checkout-cases';
import type { ConformanceContext, ConformanceTarget } from './context';
import { bodyCases } from './body-cases';
import { ALLOWED_ORIGIN, BODY_LIMIT_BYTES, BODY_READ_TIMEOUT_MS, CLIENT_TIMEOUT_MS, resolveConformanceOrder, WEBHOOK_MAX_BODY_BYTES } from './fixtures';
import { send } from './http';
import { captureTelemetry } from '../telemetry-testing';
import { orderCases } from './order-cases';
import { pathCases } from './path-cases';
import { upstreamCases } from './upstream-cases';
import { telemetryCases } from './telemetry-cases';
import { walletCases } from './wallet-cases';
import { deliveryCases, webhookCases } from './webhook-cases';

export type { ConformanceApp, ConformanceContext, ConformanceTarget } from './context';
export { remoteConformanceTarget, type RemoteRouteDescription } from './remote';

function captureLines(lines: string[]) {
  const write = (level: string) => (objOrMsg: object | string, msg?: string) => {
    lines.push(`${level} ${JSON.stringify(objOrMsg)} ${msg ?? ''}`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/**
 * Registers the route conformance suite for one adapter: the same requests,
 * over real HTTP, against the app `target` starts, with the sandbox as the
 * payment service. Every adapter must give these exact statuses and bodies.
 */
export function describeRouteConformance(name: string, target: ConformanceTarget): void {
  describe(`${name}: payment route conformance`, () => {
    let context: ConformanceContext | undefined;
    const ctx = (): ConformanceContext => {
      if (!context) throw new Error('The conformance app did not start.');
      return context;
    };

    beforeAll(async () => {
      // Local notify URLs and short retry delays, so the sandbox's own deliveries reach the app within the test.
      const sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [50, 100] });
      const events: PaymentEvent[] = [];
      const ordersResolved: string[] = [];
      const logLines: string[] = [];
      const failing = new Set<string>();
      const held = new Map<string, { start(): void; outcome: Promise<boolean> }>();
      const telemetry = captureTelemetry();
      let appUrl = '';
      const options: PaymentRoutesOptions = {
        client: { ...sandbox.clientOptions(), retry: { maxAttempts: 1 }, timeoutMs: CLIENT_TIMEOUT_MS },
        resolveOrder: (orderId) => {
          ordersResolved.push(orderId);
          return resolveConformanceOrder(orderId);
        },
        // The app's address is known only once it listens.
        notifyUrl: () => `${appUrl}/webhook`,
        merchantReturnUrl: 'http://127.0.0.1/shop/thanks',
        wallet: { gatewayId: sandbox.gatewayId, merchantName: 'Conformance Shop' },
        webhook: { secret: sandbox.webhookSecret, maxBodyBytes: WEBHOOK_MAX_BODY_BYTES },
        bodyLimitBytes: BODY_LIMIT_BYTES,
        bodyReadTimeoutMs: BODY_READ_TIMEOUT_MS,
        allowedOrigins: [ALLOWED_ORIGIN],
        logger: captureLines(logLines),
        telemetry: telemetry.telemetry,
        on: {
          '*': async (event) => {
            const hold = event.transactionId === undefined ? undefined : held.get(event.transactionId);
            if (hold !== undefined) {
              held.delete(event.transactionId as string);
              hold.start();
              if (await hold.outcome) throw new Error('handler failure requested by the test');
            }
            const key = [event.transactionId, event.referenceOrderId].find((k) => k !== undefined && failing.has(k));
            if (key !== undefined && failing.delete(key)) {
              throw new Error('handler failure requested by the test');
            }
            events.push(event);
          },
        },
      };
      try {
        const app = await target.startApp(options);
        appUrl = app.url;
        context = {
          app,
          sandbox,
          events,
          ordersResolved,
          logLines,
          walletTokens: [],
          responses: [],
          telemetry,
          failNextEvent: (key) => void failing.add(key),
          holdNextEvent: (key) => {
            let start!: () => void;
            let release!: (fail: boolean) => void;
            const started = new Promise<void>((resolve) => (start = resolve));
            held.set(key, { start, outcome: new Promise<boolean>((resolve) => (release = resolve)) });
            return { started, release };
          },
        };
      } catch (error) {
        await sandbox.close();
        await telemetry.close();
        throw error;
      }
    });

    afterAll(async () => {
      await context?.app.close();
      await context?.sandbox.close();
      await context?.telemetry.close();
    });

    describe('POST /checkout', () => checkoutCases(ctx, target));
    describe('wallet routes', () => walletCases(ctx, target));
    describe('POST /webhook', () => webhookCases(ctx));
    describe('webhooks sent by the service', () => deliveryCases(ctx));
    describe('payment service failures', () => upstreamCases(ctx));
    describe('one order, one charge', () => orderCases(ctx));
    if (target.remoteRuntime === undefined) describe('telemetry', () => telemetryCases(ctx));
    else describe.skip(`telemetry [skipped on ${target.remoteRuntime}: the telemetry option is an OpenTelemetry SDK in the test process]`, () => telemetryCases(ctx));
    describe('request bodies: read deadline, size, nesting', () => bodyCases(ctx, target));

    describe('disguised route paths', () => pathCases(ctx, target));

    describe('other paths', () => {
      it("a path that is not a payment route reaches the app's own routes", async () => {
        const own = await send(`${ctx().app.url}/own-route`);
        expect(own.status).toBe(200);
        expect(own.json).toEqual({ own: true });
        const unknown = await send(`${ctx().app.url}/no-such-route`);
        expect(unknown.status).toBe(404);
      });
    });

    // Runs last: it inspects what every case above logged and received.
    it('never lets the API key, the webhook secret or a wallet token reach a log line, a response, a span or a metric', async () => {
      const { sandbox, logLines, responses, walletTokens, telemetry } = ctx();
      const exported = await telemetry.exportedText();
      expect(logLines.length).toBeGreaterThan(0);
      expect(walletTokens.length).toBeGreaterThan(0);
      // Routes in another runtime get no telemetry option (context.ts, remoteRuntime): nothing is exported there.
      if (target.remoteRuntime === undefined) expect(exported.length).toBeGreaterThan(100);
      for (const secret of [sandbox.apiKey, sandbox.webhookSecret, ...walletTokens]) {
        for (const text of [...logLines, ...responses, ...exported]) expect(text).not.toContain(secret);
      }
    });
  });
}
