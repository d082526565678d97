import { runInNewContext } from 'node:vm';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index';
import { post, saleBody } from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ clock: { now: () => Date.UTC(2031, 0, 1) } });
});
afterAll(() => sandbox.close());

function walletRequest(overrides: { allowedAuthMethods?: string[]; tokenizationType?: string } = {}) {
  return {
    apiVersion: 2,
    apiVersionMinor: 0,
    allowedPaymentMethods: [
      {
        type: 'CARD',
        parameters: { allowedAuthMethods: overrides.allowedAuthMethods ?? ['CRYPTOGRAM_3DS'], allowedCardNetworks: ['MASTERCARD', 'VISA'], billingAddressRequired: true },
        tokenizationSpecification: {
          type: overrides.tokenizationType ?? 'PAYMENT_GATEWAY',
          parameters: { gateway: sandbox.gatewayId, gatewayMerchantId: sandbox.merchantId },
        },
      },
    ],
    merchantInfo: { merchantName: 'Mug shop' },
    transactionInfo: { totalPriceStatus: 'FINAL', totalPrice: '25.00', currencyCode: 'USD', countryCode: 'US' },
  };
}

interface TestWallet {
  loadPaymentData(request: unknown, testOptions?: { additional3dsRequired?: boolean }): Promise<{
    apiVersion: number;
    paymentMethodData: { type: string; tokenizationData: { type: string; token: string } };
  }>;
  isReadyToPay(request: unknown): Promise<{ result: boolean }>;
}

/** Runs the served script as a page would, with a `window`, real fetch, and a console that records anything logged. */
async function loadTestWallet(): Promise<{ wallet: TestWallet; logged: unknown[][] }> {
  const script = await (await fetch(`${sandbox.url}/sandbox/test-wallet.js`)).text();
  const logged: unknown[][] = [];
  const record = (...args: unknown[]) => void logged.push(args);
  const window: { PaymountTestWallet?: TestWallet } = {};
  runInNewContext(script, { window, fetch, console: { log: record, info: record, warn: record, error: record, debug: record } });
  if (!window.PaymountTestWallet) throw new Error('the script did not define PaymountTestWallet');
  return { wallet: window.PaymountTestWallet, logged };
}

describe('POST /sandbox/wallet-token', () => {
  it('mints a token shaped like a wallet token, with CORS for shop pages on another origin', async () => {
    const res = await fetch(`${sandbox.url}/sandbox/wallet-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
      body: JSON.stringify({}),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
    const { token } = (await res.json()) as { token: string };
    const parsed = JSON.parse(token) as Record<string, string>;
    expect(Object.keys(parsed).sort()).toEqual(['protocolVersion', 'signature', 'signedMessage']);
    expect(Object.keys(JSON.parse(parsed.signedMessage ?? '{}') as object).sort()).toEqual(['encryptedMessage', 'ephemeralPublicKey', 'tag']);
    expect((await post(sandbox, '/v1/checkout/sale', saleBody(sandbox, { cardEncryptedData: token }))).json.data.transactionStatus).toBe('S');
  });

  it('answers the CORS preflight of a shop page on this machine', async () => {
    const res = await fetch(`${sandbox.url}/sandbox/wallet-token`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:3000', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toContain('content-type');
  });

  it('refuses a malformed mint request with 400', async () => {
    const res = await fetch(`${sandbox.url}/sandbox/wallet-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
      body: JSON.stringify({ authMethod: 'MAGIC' }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
  });
});

describe('GET /sandbox/test-wallet.js', () => {
  it('loadPaymentData resolves the wallet response with a token the sandbox charges, and logs nothing', async () => {
    const { wallet, logged } = await loadTestWallet();
    expect((await wallet.isReadyToPay(walletRequest())).result).toBe(true);
    const response = await wallet.loadPaymentData(walletRequest());
    expect(response.apiVersion).toBe(2);
    expect(response.paymentMethodData.type).toBe('CARD');
    expect(response.paymentMethodData.tokenizationData.type).toBe('PAYMENT_GATEWAY');
    const token = response.paymentMethodData.tokenizationData.token;
    const answer = await post(sandbox, '/v1/checkout/sale', saleBody(sandbox, { cardEncryptedData: token }));
    expect(answer.json.data.transactionStatus).toBe('S');
    expect(logged).toEqual([]);
  });

  it('passes the additional-3DS test option into the token', async () => {
    const { wallet } = await loadTestWallet();
    const response = await wallet.loadPaymentData(walletRequest(), { additional3dsRequired: true });
    const token = response.paymentMethodData.tokenizationData.token;
    const answer = await post(sandbox, '/v1/checkout/sale', saleBody(sandbox, { cardEncryptedData: token }));
    expect(answer.json.data).toMatchObject({ transactionStatus: 'F', reason: { code: 'ADDITIONAL_3DS_REQUIRED' } });
  });

  it('isReadyToPay takes a readiness request, which carries no tokenization or transaction details', async () => {
    const { wallet } = await loadTestWallet();
    const { allowedPaymentMethods, transactionInfo: _omitted, ...rest } = walletRequest();
    const readiness = { ...rest, allowedPaymentMethods: allowedPaymentMethods.map(({ type, parameters }) => ({ type, parameters })) };
    expect((await wallet.isReadyToPay(readiness)).result).toBe(true);
    await expect(wallet.loadPaymentData(readiness)).rejects.toMatchObject({ statusCode: 'DEVELOPER_ERROR' });
    await expect(wallet.isReadyToPay(walletRequest({ allowedAuthMethods: ['PAN_ONLY'] }))).rejects.toMatchObject({
      statusCode: 'DEVELOPER_ERROR',
      statusMessage: expect.stringMatching(/CRYPTOGRAM_3DS/),
    });
  });

  it.each([
    ['PAN_ONLY allowed', { allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'] }, /CRYPTOGRAM_3DS/],
    ['DIRECT tokenization', { tokenizationType: 'DIRECT' }, /PAYMENT_GATEWAY/],
  ])('rejects a request with %s like the wallet API does', async (_label, overrides, message) => {
    const { wallet } = await loadTestWallet();
    await expect(wallet.loadPaymentData(walletRequest(overrides))).rejects.toMatchObject({
      statusCode: 'DEVELOPER_ERROR',
      statusMessage: expect.stringMatching(message),
    });
  });
});

describe('clock, charges and deliveries routes', () => {
  it('POST /sandbox/clock/advance moves service time; /sandbox/clock/reset returns to the given clock', async () => {
    const start = sandbox.clock.now();
    const json = { 'content-type': 'application/json' };
    const advanced = await fetch(`${sandbox.url}/sandbox/clock/advance`, { method: 'POST', headers: json, body: JSON.stringify({ ms: 31 * 60_000 }) });
    expect(((await advanced.json()) as { now: number }).now).toBe(start + 31 * 60_000);
    expect(sandbox.clock.now()).toBe(start + 31 * 60_000);
    expect(await (await fetch(`${sandbox.url}/sandbox/clock`)).json()).toEqual({ now: start + 31 * 60_000 });
    const reset = await fetch(`${sandbox.url}/sandbox/clock/reset`, { method: 'POST', headers: json });
    expect(((await reset.json()) as { now: number }).now).toBe(start);
    const bad = await fetch(`${sandbox.url}/sandbox/clock/advance`, { method: 'POST', headers: json, body: JSON.stringify({ ms: 'soon' }) });
    expect(bad.status).toBe(400);
  });

  it('GET /sandbox/charges lists the ledger', async () => {
    const body = saleBody(sandbox);
    await post(sandbox, '/v1/checkout/sale', body);
    const { charges } = (await (await fetch(`${sandbox.url}/sandbox/charges`)).json()) as { charges: Array<{ transactionRequestId: string }> };
    expect(charges.filter((charge) => charge.transactionRequestId === body.transactionRequestId)).toHaveLength(1);
  });

  it('control routes are read-only where they say so, and unknown ones are 404', async () => {
    expect((await fetch(`${sandbox.url}/sandbox/charges`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${sandbox.url}/sandbox/nothing`)).status).toBe(404);
    expect((await fetch(`${sandbox.url}/elsewhere`)).status).toBe(404);
  });
});

describe('what a hostile web page could send to the control routes', () => {
  /** A control-route request with undici, which lets the Host header be set like a DNS-rebound page would have it. */
  async function control(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
    const res = await request(`${sandbox.url}${path}`, { method: (init.method ?? 'GET') as 'GET', headers: init.headers ?? {}, body: init.body });
    const text = await res.body.text();
    const json = String(res.headers['content-type']).startsWith('application/json') ? (JSON.parse(text) as unknown) : undefined;
    return { status: res.statusCode, headers: res.headers, json };
  }
  const advance = (headers: Record<string, string>) =>
    control('/sandbox/clock/advance', { method: 'POST', headers, body: JSON.stringify({ ms: 3_600_000 }) });

  it('a POST whose body is not JSON (a form or text/plain, which any page can send) is refused 415 and changes nothing', async () => {
    const before = sandbox.clock.now();
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await advance({ 'content-type': contentType });
      expect(res.status).toBe(415);
      expect(res.json).toEqual({ error: { code: 'A08', message: 'control routes take a JSON body: send Content-Type: application/json' } });
    }
    expect((await control('/sandbox/clock/reset', { method: 'POST' })).status).toBe(415);
    expect((await control('/sandbox/wallet-token', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })).status).toBe(415);
    expect(sandbox.clock.now()).toBe(before);
  });

  it('a request naming another host (a DNS-rebound page) is refused 421 and changes nothing', async () => {
    const before = sandbox.clock.now();
    for (const host of ['rebind.attacker.example', `rebind.attacker.example:${new URL(sandbox.url).port}`, '127.0.0.1.nip.io']) {
      const res = await advance({ host, 'content-type': 'application/json' });
      expect(res.status).toBe(421);
      expect(res.json).toEqual({
        error: { code: 'C01', message: 'the Host header must name this sandbox as localhost, 127.0.0.1, [::1] or the address it listens on' },
      });
      expect((await control('/sandbox/charges', { headers: { host } })).status).toBe(421);
    }
    expect(sandbox.clock.now()).toBe(before);
  });

  it('localhost, 127.0.0.1, [::1] and the bound address are accepted as Host', async () => {
    const { port } = new URL(sandbox.url);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'LOCALHOST', new URL(sandbox.url).host]) {
      expect((await control('/sandbox/clock', { headers: { host } })).status).toBe(200);
    }
  });

  it('only the token route sends CORS, and only to loopback page origins', async () => {
    const mint = (origin: string) =>
      control('/sandbox/wallet-token', { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{}' });
    for (const origin of ['http://127.0.0.1:3000', 'http://localhost:8080', 'https://shop.localhost', 'http://[::1]:3000']) {
      const res = await mint(origin);
      expect([res.status, res.headers['access-control-allow-origin'], res.headers['vary']]).toEqual([201, origin, 'Origin']);
    }
    const foreign = await mint('https://attacker.example');
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await control('/sandbox/wallet-token', {
      method: 'OPTIONS',
      headers: { origin: 'https://attacker.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    for (const path of ['/sandbox/test-wallet.js', '/sandbox/clock', '/sandbox/charges']) {
      const res = await control(path, { headers: { origin: 'http://127.0.0.1:3000' } });
      expect(res.headers['access-control-allow-origin'], path).toBeUndefined();
    }
  });

  it('walletOrigins must be origins', async () => {
    await expect(startSandbox({ walletOrigins: ['https://shop.dev.example/'] })).rejects.toThrow(/walletOrigins\.0 "https:\/\/shop\.dev\.example\/" is not an origin/);
  });

  it('walletOrigins adds page origins the token route sends CORS to', async () => {
    const other = await startSandbox({ walletOrigins: ['https://shop.dev.example'] });
    try {
      const res = await fetch(`${other.url}/sandbox/wallet-token`, {
        method: 'POST',
        headers: { origin: 'https://shop.dev.example', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.dev.example');
    } finally {
      await other.close();
    }
  });
});
