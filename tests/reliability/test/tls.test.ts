import { createPaymentClient, PaymentNetworkError } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMerchantApp, type MerchantApp } from '../support/apps';
import { captureLogger } from '../support/capture';
import { createAgent, postJson } from '../support/http';
import { Shop, shopOptions } from '../support/shop';

/**
 * The HTTPS sandbox (TLS 1.2+, a certificate made at start) as the service.
 * A certificate nobody was told to trust is refused, at once and without
 * retries; `ca: sandbox.ca` makes it trusted. The TLS 1.1-only server and the
 * untrusted self-signed server are covered by packages/core/test/client-tls.test.ts.
 */
let sandbox: Sandbox;
const agent = createAgent(4);

beforeAll(async () => {
  sandbox = await startSandbox({ https: true, allowLocalNotifyUrl: true });
});
afterAll(async () => {
  await sandbox?.close();
  await agent.close();
});

const credentials = () => ({ apiKey: sandbox.apiKey, baseUrl: sandbox.url, appId: sandbox.appId, merchantId: sandbox.merchantId });
const payment = () => ({
  referenceOrderId: 'order-tls-0001',
  description: 'TLS check',
  amount: { orderAmount: 1000, priceCurrency: 'USD' },
  cardEncryptedData: sandbox.mintWalletToken(),
});

describe('the client against the HTTPS sandbox', () => {
  it('serves https', () => {
    expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.ca).toContain('BEGIN CERTIFICATE');
  });

  it('refuses its certificate when not told to trust it: TLS_ERROR, one attempt, nothing charged', async () => {
    const log = captureLogger();
    const client = createPaymentClient({ ...credentials(), logger: log.logger, retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 } });
    try {
      const refused = await client.directPayment(payment()).catch((error: unknown) => error);
      expect(log.entries.filter((entry) => entry.msg === 'payment service call failed')).toHaveLength(1);
      expect(refused).toBeInstanceOf(PaymentNetworkError);
      expect(refused).toMatchObject({ code: 'TLS_ERROR', outcomeUnknown: false });
      expect((refused as Error).message).toMatch(/TLS 1\.2 or higher with a trusted certificate/);
      expect(sandbox.charges()).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('pays once `ca: sandbox.ca` makes it trusted', async () => {
    const client = createPaymentClient({ ...credentials(), ca: sandbox.ca as string });
    try {
      await expect(client.directPayment(payment())).resolves.toMatchObject({ status: 'succeeded', outcomeUnknown: false });
      expect(sandbox.charges()).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('through the mounted routes: untrusted answers 502 and charges nothing; trusted pays', async () => {
    const shop = new Shop();
    shop.addOrder('tls', 1_500);
    const before = sandbox.charges().length;
    for (const trusted of [false, true]) {
      let app: MerchantApp | undefined;
      const options = shopOptions({ sandbox, shop, routesUrl: () => app?.routesUrl ?? '' });
      const client = options.client as Record<string, unknown>;
      if (!trusted) delete client.ca;
      try {
        app = await startMerchantApp('express', options);
        const answer = await postJson(agent, `${app.routesUrl}/wallet/pay`, { orderId: 'tls', token: sandbox.mintWalletToken() });
        if (trusted) {
          expect(answer.status).toBe(200);
          expect(answer.json).toMatchObject({ status: 'succeeded' });
        } else {
          expect(answer.status).toBe(502);
          expect(answer.json).toMatchObject({ error: { code: 'TLS_ERROR' } });
          expect(sandbox.charges()).toHaveLength(before);
        }
      } finally {
        await app?.close();
      }
    }
    expect(sandbox.charges()).toHaveLength(before + 1);
  });
});
