import * as otelApi from '@opentelemetry/api';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureTelemetry } from '../../../tools/telemetry-testing';
import { createPaymentClient, createPaymentRoutes, PaymentValidationError, signWebhook, signWebhookAsync, verifyWebhook } from '../src';
import { platform, platformCrypto, webCrypto } from '../src/entries/internal';
import { directPaymentInput } from './support/fixtures';

/*
 * What differs on the web build (Bun, Deno, workerd, the edge runtime), run in
 * Node with the web platform bound (vitest.config.ts): the options only undici
 * has, the sync signer, telemetry without a require(), and the in-memory stores.
 */

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

it('runs on the web platform', () => {
  expect(platform.name).toBe('web');
});

it("binds the webhook verifier to the web platform's crypto", () => {
  expect(platformCrypto).toBe(webCrypto);
});

describe('client options', () => {
  it.each([
    ['dispatcher', { dispatcher: new Agent() }],
    ['ca', { ca: '-----BEGIN CERTIFICATE-----' }],
  ])('refuses `%s`, which configures undici, naming it and what to do instead', (name, option) => {
    const attempt = () => createPaymentClient({ ...sandbox.clientOptions(), ...option, logger: false });
    expect(attempt).toThrow(PaymentValidationError);
    expect(attempt).toThrow(`${name} configures undici, which paymount uses on Node only; this runtime sends through fetch, so remove \`${name}\` (or pass your own \`transport\`)`);
  });
});

describe('webhook signing', () => {
  const secret = 'whsec_web_platform_0123456789';

  it('signWebhook (sync) says to use signWebhookAsync, which Web Crypto can serve', () => {
    expect(() => signWebhook({ payload: {}, secret })).toThrow('use `await signWebhookAsync(options)` instead');
  });

  it('signWebhookAsync signs a delivery verifyWebhook accepts, and a changed byte is refused', async () => {
    const payload = { transactionId: 'T1', transactionRequestId: 'R1', referenceOrderId: 'o-1', transactionType: 'SALE', transactionStatus: 'S', amount: { orderAmount: 100, priceCurrency: 'USD' } };
    const { body, headers } = await signWebhookAsync({ payload, secret });
    await expect(verifyWebhook({ rawBody: body, headers, secret })).resolves.toMatchObject({ type: 'payment.succeeded', transactionId: 'T1' });
    await expect(verifyWebhook({ rawBody: body.replace('T1', 'T2'), headers, secret })).rejects.toMatchObject({ reason: 'bad_signature' });
  });
});

describe('telemetry', () => {
  const pay = async (telemetry: Parameters<typeof createPaymentClient>[0]['telemetry']) => {
    const client = createPaymentClient({ ...sandbox.clientOptions(), telemetry, logger: false });
    await client.directPayment(directPaymentInput({ cardEncryptedData: sandbox.mintWalletToken() }));
    await client.close();
  };

  it('traces with the API passed as `telemetry.api`, and not at all without it (no require() of the optional peer)', async () => {
    const capture = captureTelemetry();
    try {
      await pay({ tracerProvider: capture.telemetry.tracerProvider });
      expect(capture.spans()).toEqual([]);
      await pay({ ...capture.telemetry, api: otelApi });
      expect(capture.spans().map((span) => span.name)).toEqual(['POST /v1/checkout/sale', 'paymount POST /v1/checkout/sale']);
    } finally {
      await capture.close();
    }
  });

  describe('a provider given without `api` (telemetry would be off without a word)', () => {
    const NO_API = 'records no span and no metric';
    afterEach(() => vi.restoreAllMocks());

    it("says so once on the console when the client is created, naming what was given and `import * as api from '@opentelemetry/api'`", async () => {
      const capture = captureTelemetry();
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        const client = createPaymentClient({ ...sandbox.clientOptions(), telemetry: { tracerProvider: capture.telemetry.tracerProvider } });
        await client.directPayment(directPaymentInput({ cardEncryptedData: sandbox.mintWalletToken() }));
        await client.close();
        const lines = warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes(NO_API));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain('`telemetry.tracerProvider` was given without `telemetry.api`');
        expect(lines[0]).toContain("import * as api from '@opentelemetry/api'");
      } finally {
        await capture.close();
      }
    });

    it("routes given a logger say it once, though their own client shares the option; with `api`, nothing", () => {
      const capture = captureTelemetry();
      const warnings: string[] = [];
      const logger = { debug: () => {}, info: () => {}, warn: (_fields: object | string, message?: string) => void warnings.push(String(message)), error: () => {} };
      const routes = (telemetry: Parameters<typeof createPaymentRoutes>[0]['telemetry']) =>
        createPaymentRoutes({ client: sandbox.clientOptions(), resolveOrder: () => null, webhook: { secret: 'whsec_web_platform_0123456789' }, logger, telemetry });
      routes({ meterProvider: capture.telemetry.meterProvider });
      expect(warnings.filter((line) => line.includes(NO_API))).toEqual([expect.stringContaining('`telemetry.meterProvider` was given without `telemetry.api`')]);
      warnings.length = 0;
      routes({ ...capture.telemetry, api: otelApi });
      expect(warnings.filter((line) => line.includes(NO_API))).toEqual([]);
      return capture.close();
    });
  });

  it('refuses an `api` that is not the OpenTelemetry API module, as any malformed telemetry option', () => {
    expect(() => createPaymentClient({ ...sandbox.clientOptions(), telemetry: { api: { trace: {} } as never } })).toThrow(
      'telemetry must be false or { api?, tracerProvider?, meterProvider? }',
    );
  });
});

describe('in-memory stores where each request may run in a new isolate', () => {
  const routesOptions = { client: sandbox?.clientOptions(), resolveOrder: () => null, webhook: { secret: 'whsec_web_platform_0123456789' } };
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('on workerd, the default stores are named once at start-up on the console, with what to do', () => {
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    createPaymentRoutes({ ...routesOptions, client: sandbox.clientOptions() });
    createPaymentRoutes({ ...routesOptions, client: sandbox.clientOptions() });
    const lines = warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('in-memory stores'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('protect nothing across requests on Cloudflare Workers (workerd)');
    expect(lines[0]).toContain('Pass stores every isolate shares');
    expect(lines[0]).toContain('on Cloudflare Workers `durableObjectStores(env.PAYMOUNT_STATE)` from @paymount/cloudflare');
  });

  it('in a long-lived process (Node, Bun, Deno) says nothing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    createPaymentRoutes({ ...routesOptions, client: sandbox.clientOptions() });
    expect(warn.mock.calls.filter(([line]) => String(line).includes('in-memory stores'))).toEqual([]);
  });
});
