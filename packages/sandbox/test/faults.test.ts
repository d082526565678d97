import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startSandbox, type FaultKind, type Sandbox } from '../src/index';
import { goodHeaders, post, saleBody } from './helpers';

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

  it('the same seed gives the same sequence, and some requests are hit and some not', async () => {
    const first = await codesFor(42);
    expect(await codesFor(42)).toEqual(first);
    expect(first).toContain('0');
    expect(first.some((code) => code === '(not json)' || code === 'S04')).toBe(true);
  });
});
