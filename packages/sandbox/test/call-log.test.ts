import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CALL_LOG_SIZE, CallLog } from '../src/call-log';
import { DASHBOARD_ROWS, type DashboardSnapshot } from '../src/dashboard/snapshot';
import { startSandbox, type Sandbox } from '../src/index';
import { get, post, saleBody, sessionBody } from './helpers';

const WRONG_KEY = 'sk_test_wrong_key_1f2e3d4c5b6a79880';

async function dashboard(sandbox: Sandbox): Promise<{ snapshot: DashboardSnapshot; html: Record<string, string>; page: string }> {
  const data = await request(`${sandbox.url}/sandbox/dashboard/data`);
  expect(data.statusCode).toBe(200);
  const { snapshot, html } = (await data.body.json()) as { snapshot: DashboardSnapshot; html: Record<string, string> };
  const page = await request(`${sandbox.url}/sandbox/dashboard`);
  expect(page.statusCode).toBe(200);
  return { snapshot, html, page: await page.body.text() };
}

describe('the service calls on the dashboard', () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    // No rate limit: one test makes more calls than it allows.
    sandbox = await startSandbox({ log: false, rateLimit: false });
  });
  afterEach(async () => {
    await sandbox.close();
  });

  it('lists each call it answered, refusals first with their code, message and fix, then the rest, each newest first', async () => {
    const session = await post(sandbox, '/v1/checkout/create-session', sessionBody(sandbox));
    const wrongKey = await post(sandbox, '/v1/checkout/create-session', sessionBody(sandbox), { authorization: `Bearer ${WRONG_KEY}` });
    const query = await get(sandbox, '/v1/transaction/query', { appId: sandbox.appId, merchantId: sandbox.merchantId, transactionRequestId: 'never-made' });
    const unknownMerchant = await get(sandbox, '/v1/transaction/query', { appId: sandbox.appId, merchantId: 'someone-else', transactionRequestId: 'x' });
    expect([session.json.code, wrongKey.json.code, query.json.code, unknownMerchant.json.code]).toEqual(['0', 'A02', 'T01', 'B02']);

    const { snapshot, html, page } = await dashboard(sandbox);
    expect(snapshot.calls.map((call) => [call.method, call.path, call.status, call.code, call.traceId, call.refused])).toEqual([
      ['GET', '/v1/transaction/query', 403, 'B02', unknownMerchant.json.traceId, true],
      ['GET', '/v1/transaction/query', 404, 'T01', query.json.traceId, true],
      ['POST', '/v1/checkout/create-session', 401, 'A02', wrongKey.json.traceId, true],
      ['POST', '/v1/checkout/create-session', 200, '0', session.json.traceId, false],
    ]);
    const refusedKey = snapshot.calls[2];
    // The message as answered, split into what was refused and the sandbox's fix; the code's rule beside them.
    expect(`${refusedKey?.message}; for local development against this sandbox, ${refusedKey?.fix}`).toBe(wrongKey.json.msg);
    expect(refusedKey).toMatchObject({
      message: 'API key is not valid for the test or the production environment',
      fix: expect.stringContaining('sandbox.clientOptions()'),
      rule: expect.stringContaining('API key belongs to no environment'),
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(snapshot.calls[3]).not.toHaveProperty('message');

    // The page shows the same rows, in the same order, with the fix.
    for (const text of [html['calls'] ?? '', page]) {
      const traces = [...text.matchAll(/data-trace-id="([^"]+)"/g)].map((match) => match[1]);
      expect(traces).toEqual([unknownMerchant.json.traceId, query.json.traceId, wrongKey.json.traceId, session.json.traceId]);
      expect(text).toContain('<strong>Fix:</strong> configure the client with its key');
    }
    expect(page.indexOf('id="calls"')).toBeLessThan(page.indexOf('id="deliveries"'));
  });

  it('keeps neither a key nor a wallet token: only what the dashboard shows of each call', async () => {
    const token = sandbox.mintWalletToken();
    const sale = await post(sandbox, '/v1/checkout/sale', saleBody(sandbox, { cardEncryptedData: token }));
    const forged = await post(sandbox, '/v1/checkout/sale', saleBody(sandbox, { cardEncryptedData: `${token.slice(0, -12)}"}` }));
    await post(sandbox, '/v1/checkout/sale', saleBody(sandbox), { authorization: `Bearer ${WRONG_KEY}` });
    await get(sandbox, '/v1/transaction/query', { appId: sandbox.appId, merchantId: sandbox.merchantId, transactionRequestId: sandbox.productionApiKey });
    expect(sale.json.code).toBe('0');
    expect(forged.json.code).toMatch(/^W0/);

    const { snapshot, html, page } = await dashboard(sandbox);
    expect(snapshot.calls).toHaveLength(4);
    const shown = [JSON.stringify(snapshot), ...Object.values(html), page];
    for (const secret of [WRONG_KEY, sandbox.testApiKey, sandbox.productionApiKey, token, JSON.parse(token).signedMessage as string]) {
      for (const text of shown) expect(text).not.toContain(secret);
    }
  });

  it('escapes the path of a call to no route, as every value on the page', async () => {
    const hostile = `/v1/x'onmouseover=alert(1)'`;
    const answer = await request(`${sandbox.url}${hostile}`, { method: 'POST' });
    expect(answer.statusCode).toBe(404);
    await answer.body.dump();
    const { html, page } = await dashboard(sandbox);
    for (const text of [html['calls'] ?? '', page]) {
      expect(text).not.toContain("x'onmouseover");
      expect(text).toContain('x&#39;onmouseover=alert(1)&#39;');
    }
  });

  it('keeps the newest CALL_LOG_SIZE calls, oldest first', () => {
    const log = new CallLog();
    for (let i = 0; i < CALL_LOG_SIZE + 5; i++) {
      log.record('GET', '/v1/transaction/query', { status: 404, envelope: { code: 'T01', msg: 'no transaction', traceId: `t${i}`, data: {} }, headers: {} }, i);
    }
    const kept = log.list();
    expect(kept).toHaveLength(CALL_LOG_SIZE);
    expect([kept[0]?.traceId, kept.at(-1)?.traceId]).toEqual(['t5', `t${CALL_LOG_SIZE + 4}`]);
  });

  it('shows the newest refusals first on the page, DASHBOARD_ROWS of them', async () => {
    const total = CALL_LOG_SIZE + 10;
    const traces: string[] = [];
    for (let i = 0; i < total; i++) {
      const answer = await get(sandbox, '/v1/transaction/query', { appId: sandbox.appId, merchantId: sandbox.merchantId, transactionRequestId: `missing-${i}` });
      traces.push(answer.json.traceId);
    }
    await post(sandbox, '/v1/checkout/create-session', sessionBody(sandbox));
    const { snapshot } = await dashboard(sandbox);
    // Refusals fill the rows before any success: the one successful call is not shown.
    expect(snapshot.calls.map((call) => call.traceId)).toEqual(traces.slice(-DASHBOARD_ROWS).reverse());
  });
});
