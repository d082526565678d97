import { createPaymentClient, MemoryOrderAttemptStore, PaymentError, signWebhook } from '@paymount/core';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { ADAPTERS, startMerchantApp, type AdapterName, type MerchantApp } from '../support/apps';
import { captureLogger, serialise } from '../support/capture';
import { createAgent, payHostedCheckout, postJson, send, type Answer } from '../support/http';
import { SecretScan } from '../support/secrets';
import { Shop, shopOptions } from '../support/shop';
import { captureTelemetry } from '../../../tools/telemetry-testing';

/**
 * With every logger at its most verbose (debug, every line kept: paymount's
 * own lines, the client's per-attempt lines, Nest's framework log, the
 * sandbox's error channel), drive the happy paths, every failure path the
 * service can cause, and secrets placed where they do not belong. Then scan
 * every line, response, error, exported span, span event and metric, and
 * sandbox-visible record for the API keys,
 * the webhook secret and each wallet token. The only places they may appear
 * are the requests meant to carry them (Authorization, cardEncryptedData,
 * the HMAC key), which are not recorded.
 */
const agent = createAgent(32);

/**
 * The order store, able to hold the next request that takes an order's lock right after it took it, until
 * release(): a request for the order sent meanwhile finds it busy, however slow the machine.
 */
class LockHoldingStore extends MemoryOrderAttemptStore {
  private held: { orderId: string; taken: () => void; released: Promise<void> } | undefined;

  holdNextLock(orderId: string): { taken: Promise<void>; release: () => void } {
    let taken = () => {};
    let release = () => {};
    const whenTaken = new Promise<void>((resolve) => (taken = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.held = { orderId, taken, released };
    return { taken: whenTaken, release };
  }

  override async lock(referenceOrderId: string, ttlMs: number): Promise<string | undefined> {
    const token = await super.lock(referenceOrderId, ttlMs);
    const held = this.held;
    if (token !== undefined && held?.orderId === referenceOrderId) {
      this.held = undefined;
      held.taken();
      await held.released;
    }
    return token;
  }
}
const scanned: Record<string, { secrets: number; texts: number }> = {};
afterAll(async () => {
  console.info(`secret scan: ${JSON.stringify(scanned)}`);
  await agent.close();
});

async function scenario(adapter: AdapterName): Promise<SecretScan> {
  const scan = new SecretScan();
  const sandboxErrors: string[] = [];
  const frameworkLog: string[] = [];
  const sandbox: Sandbox = await startSandbox({
    allowLocalNotifyUrl: true,
    rateLimit: false,
    webhookRetryDelaysMs: [20, 40],
    onError: (error) => void sandboxErrors.push(serialise(error)),
  });
  scan.secret(sandbox.apiKey, sandbox.productionApiKey, sandbox.webhookSecret);
  const shop = new Shop();
  const log = captureLogger();
  const telemetry = captureTelemetry();
  const answers: Answer[] = [];
  let failNext = false;
  const orderStore = new LockHoldingStore();
  let app: MerchantApp | undefined;
  try {
    app = await startMerchantApp(
      adapter,
      {
        ...shopOptions({
        sandbox,
        shop,
        logger: log.logger,
        routesUrl: () => app?.routesUrl ?? '',
        client: { timeoutMs: 300, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } },
        handler: (_event, apply) => {
          if (failNext) {
            failNext = false;
            // A handler error quoting what it was given: the route logs it through the redacting logger.
            throw new Error(`could not store the event signed with ${sandbox.webhookSecret}`);
          }
          apply();
        },
        }),
        telemetry: telemetry.telemetry,
        orders: { store: orderStore },
      },
      { frameworkLog: (line) => void frameworkLog.push(line) },
    );
    const routes = app.routesUrl;
    const record = async (pending: Promise<Answer>) => {
      const answer = await pending;
      answers.push(answer);
      return answer;
    };
    const token = (options?: Parameters<Sandbox['mintWalletToken']>[0]) => {
      const minted = sandbox.mintWalletToken(options);
      scan.secret(minted);
      return minted;
    };
    // A new order for every payment: an order once paid is answered "already paid" without its token being sent.
    let orders = 0;
    const ok = () => shop.addOrder(`ok${++orders}`, 2_500).id;
    shop.addOrder('declined', 8_888);

    // Payments that succeed, are declined, or are refused by the service for the token's sake.
    await record(postJson(agent, `${routes}/wallet/pay`, { orderId: ok(), token: token() }));
    await record(postJson(agent, `${routes}/wallet/pay`, { orderId: 'declined', token: token() }));
    await record(postJson(agent, `${routes}/wallet/pay`, { orderId: ok(), token: token({ additional3dsRequired: true }) }));
    await record(postJson(agent, `${routes}/wallet/pay`, { orderId: ok(), token: token({ authMethod: 'PAN_ONLY' }) }));
    await record(postJson(agent, `${routes}/wallet/pay`, { orderId: ok(), token: token({ gatewayId: 'someone-else' }) }));
    await record(postJson(agent, `${routes}/wallet/pay`, { orderId: ok(), token: token({ expiresInMs: -1 }) }));
    // Every fault the service can throw at a payment carrying a token.
    for (const kind of ['http-500', 'reset-before', 'reset-after', 'non-json', 's04', 'delay'] as const) {
      sandbox.injectFault({ kind, path: '/v1/checkout/sale', times: 2, delayMs: 600 });
      await record(postJson(agent, `${routes}/wallet/pay`, { orderId: ok(), token: token() }));
      sandbox.clearFaults();
    }
    // Secrets where they do not belong: the token as the order id, in the query, in headers; the key as a token.
    const stray = token();
    await record(postJson(agent, `${routes}/wallet/pay`, { orderId: stray, token: stray }));
    await record(postJson(agent, `${routes}/wallet/pay`, { orderId: ok(), token: sandbox.apiKey }));
    await record(postJson(agent, `${routes}/checkout`, { orderId: sandbox.apiKey }));
    await record(send(agent, `${routes}/wallet/config?orderId=${encodeURIComponent(stray)}`));
    await record(send(agent, `${routes}/wallet/pay`, { method: 'POST', headers: { 'content-type': 'text/plain', authorization: `Bearer ${sandbox.apiKey}` }, body: stray }));
    // Each secret in every field the browser controls: the order id (JSON, form, query), the token, headers.
    for (const secret of [sandbox.apiKey, sandbox.webhookSecret, stray]) {
      const headers = { authorization: `Bearer ${secret}`, cookie: `session=${secret}`, 'x-order-id': secret };
      const orderId = `orderId=${encodeURIComponent(secret)}`;
      await record(send(agent, `${routes}/wallet/pay`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ orderId: secret, token: secret }) }));
      await record(send(agent, `${routes}/checkout`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ orderId: secret }) }));
      await record(send(agent, `${routes}/checkout`, { method: 'POST', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: orderId }));
      await record(send(agent, `${routes}/status?${orderId}`, { headers }));
      await record(send(agent, `${routes}/wallet/config?${orderId}`, { headers }));
    }
    // Hosted checkout, paid and cancelled, and a checkout that fails upstream.
    const session = await record(postJson(agent, `${routes}/checkout`, { orderId: ok() }));
    const { checkoutUrl } = session.json as { checkoutUrl: string };
    answers.push(await send(agent, checkoutUrl));
    await payHostedCheckout(agent, checkoutUrl);
    sandbox.injectFault({ kind: 'non-json', path: '/v1/checkout/create-session' });
    await record(postJson(agent, `${routes}/checkout`, { orderId: ok() }));
    // The order guard's own calls and answers: a session expired before a wallet payment, a pending payment asked
    // about before another goes out, a busy order, the status route (asked with a token too), reconciliation.
    const guarded = ok();
    await record(postJson(agent, `${routes}/checkout`, { orderId: guarded }));
    await record(postJson(agent, `${routes}/wallet/pay`, { orderId: guarded, token: token() }));
    const pendingOrder = ok();
    sandbox.injectFault({ kind: 'delay', path: '/v1/checkout/sale', times: 2, delayMs: 600 });
    await record(postJson(agent, `${routes}/wallet/pay`, { orderId: pendingOrder, token: token() }));
    // Two payments of it at once: the first holds the order's lock until the second has been answered busy.
    const hold = orderStore.holdNextLock(shop.resolveOrder(pendingOrder)!.referenceOrderId);
    const paying = postJson(agent, `${routes}/wallet/pay`, { orderId: pendingOrder, token: token() });
    // A payment answered without taking the lock (the wrong order id held) fails here, not at the test's time-out.
    await Promise.race([
      hold.taken,
      paying.then((answer) => {
        throw new Error(`the first payment was answered ${answer.status} without taking the order's lock`);
      }),
    ]);
    // Released whatever the second answer, so a failing one never leaves the first (and the app's close) waiting.
    const busy = await postJson(agent, `${routes}/wallet/pay`, { orderId: pendingOrder, token: token() }).finally(hold.release);
    const paidMeanwhile = await paying;
    answers.push(busy, paidMeanwhile);
    expect([busy.status, paidMeanwhile.status]).toEqual([409, 200]);
    await record(send(agent, `${routes}/status?orderId=${guarded}`));
    await record(send(agent, `${routes}/status?orderId=${encodeURIComponent(stray)}`));
    sandbox.clock.advance(120_000);
    await app.paymentRoutes.reconcile();
    // Webhooks: a handler that fails quoting the secret, forged and stale deliveries, the secret as a signature.
    failNext = true;
    await record(postJson(agent, `${routes}/wallet/pay`, { orderId: ok(), token: token() }));
    await sandbox.waitForDeliveries(10_000);
    const payload = {
      transactionId: 'T-secret',
      transactionRequestId: 'R-secret',
      referenceOrderId: 'ref-ok',
      transactionType: 'SALE',
      transactionStatus: 'S',
      amount: { orderAmount: 100, priceCurrency: 'USD' },
    };
    const forged = signWebhook({ payload, secret: 'whsec_forger_0123456789' });
    await record(send(agent, `${routes}/webhook`, { method: 'POST', headers: { ...forged.headers, 'x-signature': sandbox.webhookSecret }, body: forged.body }));
    const stale = signWebhook({ payload, secret: sandbox.webhookSecret, timestamp: Date.now() - 3_600_000 });
    await record(send(agent, `${routes}/webhook`, { method: 'POST', headers: stale.headers, body: stale.body }));
    await record(send(agent, `${routes}/webhook`, { method: 'POST', headers: forged.headers, body: sandbox.webhookSecret }));
    // A genuine body replayed after its signed time, and one without a signed time (the once-only warning).
    const replayed = signWebhook({ payload: { ...payload, notifyTime: new Date(Date.now() - 3_600_000).toISOString() }, secret: sandbox.webhookSecret });
    await record(send(agent, `${routes}/webhook`, { method: 'POST', headers: replayed.headers, body: replayed.body }));
    const unsigned = signWebhook({ payload, secret: sandbox.webhookSecret });
    await record(send(agent, `${routes}/webhook`, { method: 'POST', headers: unsigned.headers, body: unsigned.body }));

    // The client used directly, with a wrong key and against nothing listening: its errors are scanned too.
    const errors: string[] = [];
    for (const options of [
      { apiKey: `${sandbox.apiKey}x`, baseUrl: sandbox.url },
      { apiKey: sandbox.apiKey, baseUrl: 'http://127.0.0.1:9' },
      { apiKey: `${sandbox.apiKey} with space`, baseUrl: sandbox.url },
    ]) {
      try {
        const client = createPaymentClient({ ...options, appId: sandbox.appId, merchantId: sandbox.merchantId, localDevelopment: true, logger: log.logger, retry: { maxAttempts: 1 } });
        await client.directPayment({ referenceOrderId: 'ref-direct', description: 'Direct', amount: { orderAmount: 100, priceCurrency: 'USD' }, cardEncryptedData: token() }).finally(() => client.close());
      } catch (error) {
        expect(error).toBeInstanceOf(PaymentError);
        errors.push(serialise(error), String((error as Error).stack));
      }
    }
    expect(errors.length).toBeGreaterThanOrEqual(6);
    // The wrong key was refused by the service, the dead port by the network, the spaced key by validation.
    expect(errors.join('\n')).toMatch(/A02/);
    expect(errors.join('\n')).toMatch(/Could not connect/);
    expect(errors.join('\n')).toMatch(/must not contain whitespace/);
    scan.secret(`${sandbox.apiKey}x`);

    // What the sandbox shows: its records and its control routes.
    const sandboxViews = await Promise.all([send(agent, `${sandbox.url}/sandbox/charges`), send(agent, `${sandbox.url}/sandbox/deliveries`)]);
    scan.text('log line', ...log.entries.map((entry) => entry.line));
    scan.text('framework log', ...frameworkLog);
    scan.text('response', ...answers.map((answer) => `${JSON.stringify(answer.headers)} ${answer.text}`));
    scan.text('error', ...errors);
    scan.text('sandbox error channel', ...sandboxErrors);
    scan.text('sandbox record', serialise(sandbox.charges()), serialise(sandbox.deliveries()), ...sandboxViews.map((view) => view.text));
    const exported = await telemetry.exportedText();
    scan.text('span, span event or metric', ...exported);

    // The scenario did reach the paths it meant to: debug lines, refusals, a failed handler, retried faults.
    expect(log.entries.some((entry) => entry.level === 'debug')).toBe(true);
    expect(log.entries.some((entry) => entry.msg.startsWith('webhook handler failed'))).toBe(true);
    expect(log.entries.some((entry) => entry.fields.code === 'WEBHOOK_STALE_EVENT')).toBe(true);
    expect(log.entries.some((entry) => entry.msg.startsWith('webhook deliveries carry no signed notifyTime'))).toBe(true);
    expect(answers.some((answer) => answer.status === 502)).toBe(true);
    expect(answers.filter((answer) => answer.status === 400).length).toBeGreaterThan(3);
    expect(telemetry.spans().filter((span) => span.attributes['http.route'] !== undefined).length).toBeGreaterThan(answers.length / 2);
    return scan;
  } finally {
    await app?.close();
    await sandbox.close();
    await telemetry.close();
  }
}

describe('no secret in any log line, error, response or sandbox record, with logging at its most verbose', () => {
  for (const adapter of ADAPTERS) {
    it(`${adapter}: API keys, webhook secret and every wallet token stay out of everything captured`, async () => {
      const scan = await scenario(adapter);
      scanned[adapter] = scan.counts;
      scan.expectNoLeaks();
    });
  }
});

describe('the scan itself', () => {
  it('finds a secret planted in any text, so a clean scan means something', () => {
    const scan = new SecretScan();
    scan.secret('sk_test_planted_0123456789');
    scan.text('log line', 'nothing here', 'debug {"authorization":"Bearer sk_test_planted_0123456789"}');
    expect(scan.leaks()).toEqual(['log line: sk_tes…']);
  });
});
