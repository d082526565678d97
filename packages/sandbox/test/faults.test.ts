import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { request } from 'undici';
import { startSandbox, type FaultKind, type Sandbox } from '../src/index';
import { get, goodHeaders, post, saleBody, startReceiver } from './helpers';

const SALE = '/v1/checkout/sale';
const SESSION = '/v1/checkout/create-session';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

const chargesOf = (body: Record<string, unknown>) =>
  sandbox.charges().filter((charge) => charge.transactionRequestId === body.transactionRequestId);

describe('injected faults', () => {
  it('http-500 answers 500 with no envelope, without charging', async () => {
    sandbox.injectFault({ kind: 'http-500' });
    const body = saleBody(sandbox);
    const answer = await post(sandbox, SALE, body);
    expect([answer.status, answer.text]).toEqual([500, 'Internal Server Error']);
    expect(chargesOf(body)).toHaveLength(0);
  });

  it('reset-before destroys the connection and nothing is charged', async () => {
    sandbox.injectFault({ kind: 'reset-before' });
    const body = saleBody(sandbox);
    await expect(post(sandbox, SALE, body)).rejects.toThrow();
    expect(chargesOf(body)).toHaveLength(0);
  });

  it('reset-after charges, then destroys the connection; the retry with the same transactionRequestId gets the first result', async () => {
    sandbox.injectFault({ kind: 'reset-after' });
    const body = saleBody(sandbox);
    await expect(post(sandbox, SALE, body)).rejects.toThrow();
    expect(chargesOf(body)).toHaveLength(1);
    const retry = await post(sandbox, SALE, body);
    expect(retry.json.data.transactionId).toBe(chargesOf(body)[0]?.transactionId);
    expect(chargesOf(body)).toHaveLength(1);
  });

  it('delay processes the request and holds the answer past the caller’s time-out', async () => {
    sandbox.injectFault({ kind: 'delay', delayMs: 2_000 });
    const body = saleBody(sandbox);
    await expect(
      request(`${sandbox.url}${SALE}`, {
        method: 'POST',
        headers: goodHeaders(sandbox),
        body: JSON.stringify(body),
        headersTimeout: 100,
      }),
    ).rejects.toThrow(/timeout/i);
    expect(chargesOf(body)).toHaveLength(1);
  });

  it('delay still answers once the delay has passed', async () => {
    sandbox.injectFault({ kind: 'delay', delayMs: 20 });
    const answer = await post(sandbox, SALE, saleBody(sandbox));
    expect(answer.json.data.transactionStatus).toBe('S');
  });

  it('non-json answers an HTML page with status 200', async () => {
    sandbox.injectFault({ kind: 'non-json' });
    const answer = await post(sandbox, SALE, saleBody(sandbox));
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toContain('text/html');
    expect(() => JSON.parse(answer.text)).toThrow();
  });

  it('s04 bursts: `times` requests answer S04, then service resumes', async () => {
    sandbox.injectFault({ kind: 's04', times: 3 });
    const codes: string[] = [];
    for (let i = 0; i < 4; i += 1) codes.push((await post(sandbox, SALE, saleBody(sandbox))).json.code);
    expect(codes).toEqual(['S04', 'S04', 'S04', '0']);
  });

  it('s04 sends Retry-After only when retryAfterSeconds is given', async () => {
    sandbox.injectFault({ kind: 's04', retryAfterSeconds: 120 });
    sandbox.injectFault({ kind: 's04' });
    const [withHeader, without] = [await post(sandbox, SALE, saleBody(sandbox)), await post(sandbox, SALE, saleBody(sandbox))];
    expect([withHeader.status, withHeader.json.code, withHeader.headers['retry-after']]).toEqual([429, 'S04', '120']);
    expect([without.status, without.headers['retry-after']]).toEqual([429, undefined]);
    expect(() => sandbox.injectFault({ kind: 's04', retryAfterSeconds: -1 })).toThrow(/retryAfterSeconds/);
  });

  it('a fault bound to a path leaves other routes alone', async () => {
    sandbox.injectFault({ kind: 'http-500', path: SESSION });
    expect((await post(sandbox, SALE, saleBody(sandbox))).json.code).toBe('0');
    sandbox.clearFaults();
  });

  it('refuses an unknown fault kind', () => {
    expect(() => sandbox.injectFault({ kind: 'explode' as FaultKind })).toThrow(/fault kind/);
  });
});

describe('seeded random faults', () => {
  async function codesFor(seed: number): Promise<string[]> {
    const random = await startSandbox({ faults: { seed, rate: 0.5, kinds: ['http-500', 's04'] } });
    try {
      const codes: string[] = [];
      for (let i = 0; i < 12; i += 1) codes.push((await post(random, SALE, saleBody(random))).json.code);
      return codes;
    } finally {
      await random.close();
    }
  }

  it('faultsApplied() counts the requests each kind hit, injected and random alike, across clearFaults()', async () => {
    const counted = await startSandbox({ faults: { seed: 3, rate: 0.5, kinds: ['http-500', 's04'] } });
    try {
      counted.injectFault({ kind: 'non-json', times: 2 });
      const codes: string[] = [];
      for (let i = 0; i < 12; i += 1) codes.push((await post(counted, SALE, saleBody(counted))).json.code);
      counted.clearFaults();
      await post(counted, SALE, saleBody(counted));
      const count = (code: string) => codes.filter((answered) => answered === code).length;
      // The two injected faults come first and answer non-JSON too; the seed then hits with both random kinds.
      expect([count('S04') > 0, count('(not json)') > 2]).toEqual([true, true]);
      expect(counted.faultsApplied()).toEqual({ 'non-json': 2, s04: count('S04'), 'http-500': count('(not json)') - 2 });
    } finally {
      await counted.close();
    }
  });

  it('the same seed gives the same sequence, and some requests are hit and some not', async () => {
    const first = await codesFor(42);
    expect(await codesFor(42)).toEqual(first);
    expect(first).toContain('0');
    expect(first.some((code) => code === '(not json)' || code === 'S04')).toBe(true);
  });
});

describe('the late fault: a request processed after its caller gave up', () => {
  const QUERY = '/v1/transaction/query';
  let late: Sandbox;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    late = await startSandbox({ allowLocalNotifyUrl: true, ipAllowList: ['127.0.0.1'] });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await late.close();
    await receiver.close();
  });

  const chargesIn = (sandbox: Sandbox, body: Record<string, unknown>) =>
    sandbox.charges().filter((charge) => charge.transactionRequestId === body.transactionRequestId);
  const query = (body: Record<string, unknown>) =>
    get(late, QUERY, { appId: late.appId, merchantId: late.merchantId, transactionRequestId: String(body.transactionRequestId) });
  // undici's coarse timers fire a 100 ms headersTimeout up to a second late: the late requests wait longer than that.
  const abandoned = (sandbox: Sandbox, body: Record<string, unknown>) =>
    request(`${sandbox.url}${SALE}`, { method: 'POST', headers: goodHeaders(sandbox), body: JSON.stringify(body), headersTimeout: 100 });

  it('holds the connection unanswered, knows nothing of the request until delayMs has passed, then charges and notifies', async () => {
    late.injectFault({ kind: 'late', delayMs: 1_500, path: SALE });
    const body = saleBody(late, { notifyUrl: receiver.url });
    const sentAt = Date.now();
    await expect(abandoned(late, body)).rejects.toThrow(/timeout/i);
    expect(chargesIn(late, body)).toHaveLength(0);
    expect((await query(body)).json.code).toBe('T01');
    // Charged although the caller hung up: its address, read on arrival, still passes the allow-list.
    await vi.waitFor(() => expect(chargesIn(late, body)).toHaveLength(1), { timeout: 3_000, interval: 20 });
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1_500);
    const answered = await query(body);
    expect([answered.json.code, answered.json.data.transactionStatus]).toEqual(['0', 'S']);
    await late.waitForDeliveries(3_000);
    const hooks = receiver.received.map((hook) => JSON.parse(hook.rawBody) as Record<string, unknown>);
    expect(hooks.filter((hook) => hook.transactionRequestId === body.transactionRequestId)).toHaveLength(1);
  });

  it('answers a caller that is still listening once processed', async () => {
    late.injectFault({ kind: 'late', delayMs: 50, path: SALE });
    const body = saleBody(late);
    const answer = await post(late, SALE, body);
    expect([answer.json.code, answer.json.data.transactionStatus]).toEqual(['0', 'S']);
    expect(chargesIn(late, body)).toHaveLength(1);
  });

  it('a retry under the same transactionRequestId charges now; the late request is then answered from that first result', async () => {
    late.injectFault({ kind: 'late', delayMs: 300, path: SALE });
    const body = saleBody(late);
    const held = post(late, SALE, body);
    const retry = await post(late, SALE, body);
    const first = await held;
    expect(first.json.data.transactionId).toBe(retry.json.data.transactionId);
    expect(chargesIn(late, body)).toHaveLength(1);
  });

  it('is checked when processed, as a request arriving then: an X-Timestamp now outside the 10-minute window is refused and nothing is charged', async () => {
    late.injectFault({ kind: 'late', delayMs: 200, path: SALE });
    const body = saleBody(late);
    const held = post(late, SALE, body);
    late.clock.advance(11 * 60_000);
    try {
      expect((await held).json.code).toBe('A04');
      expect(chargesIn(late, body)).toHaveLength(0);
    } finally {
      late.clock.reset();
    }
  });

  it('is drawn by the seeded random mode like any other kind', async () => {
    const random = await startSandbox({ faults: { seed: 7, rate: 1, kinds: ['late'], delayMs: 1_500 } });
    try {
      const body = saleBody(random);
      await expect(abandoned(random, body)).rejects.toThrow(/timeout/i);
      expect(chargesIn(random, body)).toHaveLength(0);
      await vi.waitFor(() => expect(chargesIn(random, body)).toHaveLength(1), { timeout: 3_000, interval: 20 });
    } finally {
      await random.close();
    }
  });

  it('closing the sandbox drops the requests it has not processed yet', async () => {
    const closing = await startSandbox();
    closing.injectFault({ kind: 'late', delayMs: 200, path: SALE });
    const body = saleBody(closing);
    const held = post(closing, SALE, body).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await closing.close();
    expect(await held).toBeInstanceOf(Error);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(chargesIn(closing, body)).toHaveLength(0);
  });
});
