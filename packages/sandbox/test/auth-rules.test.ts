import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index';
import { goodHeaders, post, sessionBody } from './helpers';

const PATH = '/v1/checkout/create-session';

describe('authentication rules, over raw HTTP', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ clock: { now: () => Date.UTC(2030, 0, 1, 12) } });
  });
  afterAll(() => sandbox.close());

  it('accepts a request that follows every rule', async () => {
    const answer = await post(sandbox, PATH, sessionBody(sandbox));
    expect(answer.status).toBe(200);
    expect(answer.json.code).toBe('0');
    expect(answer.json.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it.each([
    ['missing', undefined],
    ['lower-case scheme', 'bearer KEY'],
    ['two spaces', 'Bearer  KEY'],
    ['no space', 'BearerKEY'],
    ['trailing text', 'Bearer KEY extra'],
    ['Basic scheme', 'Basic KEY'],
  ])('A01: Authorization %s', async (_label, value) => {
    const authorization = value?.replace('KEY', sandbox.testApiKey);
    const answer = await post(sandbox, PATH, sessionBody(sandbox), { authorization });
    expect(answer.status).toBe(401);
    expect(answer.json.code).toBe('A01');
    expect(answer.json.msg).toContain('Bearer');
  });

  it('A02: a key of no environment, and the key never appears in the answer', async () => {
    const wrongKey = `${sandbox.testApiKey}x`;
    const answer = await post(sandbox, PATH, sessionBody(sandbox), { authorization: `Bearer ${wrongKey}` });
    expect(answer.status).toBe(401);
    expect(answer.json.code).toBe('A02');
    expect(answer.text).not.toContain(wrongKey);
    expect(answer.text).not.toContain(sandbox.testApiKey);
  });

  it('the production key is accepted on the same base URL and selects the production environment', async () => {
    const body = sessionBody(sandbox);
    const answer = await post(sandbox, PATH, body, { authorization: `Bearer ${sandbox.productionApiKey}` });
    expect(answer.json.code).toBe('0');
    // The same transactionRequestId in the test environment is a different request.
    const inTest = await post(sandbox, PATH, body);
    expect(inTest.json.code).toBe('0');
    expect(inTest.json.data.sessionId).not.toBe(answer.json.data.sessionId);
  });

  it.each([
    ['missing', undefined],
    ['form encoded', 'application/x-www-form-urlencoded'],
    ['text', 'text/plain'],
    ['a longer JSON type', 'application/json-patch+json'],
    ['a parameter first', 'charset=utf-8; application/json'],
    ['JSON after a parameter separator only', ';application/json'],
  ])('A08: Content-Type %s', async (_label, value) => {
    const answer = await post(sandbox, PATH, sessionBody(sandbox), { 'content-type': value });
    expect(answer.status).toBe(415);
    expect(answer.json.code).toBe('A08');
  });

  it.each(['application/json; charset=utf-8', ' Application/JSON ;charset=utf-8', 'APPLICATION/JSON'])(
    'accepts Content-Type %j: the media type is case-insensitive, spaces around it and parameters after it allowed',
    async (value) => {
      const answer = await post(sandbox, PATH, sessionBody(sandbox), { 'content-type': value });
      expect(answer.json.code).toBe('0');
    },
  );

  it.each([
    ['missing', undefined],
    ['10-digit seconds', () => String(Math.floor(sandbox.clock.now() / 1000))],
    ['ISO date', () => new Date(sandbox.clock.now()).toISOString()],
    ['14 digits', () => `${sandbox.clock.now()}0`],
  ])('A03: X-Timestamp %s', async (_label, value) => {
    const answer = await post(sandbox, PATH, sessionBody(sandbox), { 'x-timestamp': typeof value === 'function' ? value() : value });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('A03');
  });

  it('A04: X-Timestamp outside ±10 minutes of the sandbox clock; the edges are inside', async () => {
    const now = sandbox.clock.now();
    for (const offset of [-10 * 60_000, 10 * 60_000]) {
      const answer = await post(sandbox, PATH, sessionBody(sandbox), { 'x-timestamp': String(now + offset) });
      expect(answer.json.code).toBe('0');
    }
    for (const offset of [-10 * 60_000 - 1, 10 * 60_000 + 1]) {
      const answer = await post(sandbox, PATH, sessionBody(sandbox), { 'x-timestamp': String(now + offset) });
      expect(answer.status).toBe(401);
      expect(answer.json.code).toBe('A04');
    }
  });

  it('A04 follows the clock: real time is refused once the clock moves 11 minutes', async () => {
    const before = String(sandbox.clock.now());
    sandbox.clock.advance(11 * 60_000);
    try {
      const answer = await post(sandbox, PATH, sessionBody(sandbox), { 'x-timestamp': before });
      expect(answer.json.code).toBe('A04');
    } finally {
      sandbox.clock.advance(-11 * 60_000);
    }
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['65 characters', 'r'.repeat(65)],
  ])('A05: X-Client-Request-Id %s', async (_label, value) => {
    const answer = await post(sandbox, PATH, sessionBody(sandbox), { 'x-client-request-id': value });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('A05');
  });

  it('accepts a 64-character X-Client-Request-Id', async () => {
    const answer = await post(sandbox, PATH, sessionBody(sandbox), { 'x-client-request-id': 'q'.repeat(64) });
    expect(answer.json.code).toBe('0');
  });

  it('A06: a repeated X-Client-Request-Id within 10 minutes is a duplicate; after 10 minutes it is new', async () => {
    const headers = goodHeaders(sandbox);
    expect((await post(sandbox, PATH, sessionBody(sandbox), headers)).json.code).toBe('0');
    const repeat = await post(sandbox, PATH, sessionBody(sandbox), headers);
    expect(repeat.status).toBe(409);
    expect(repeat.json.code).toBe('A06');
    sandbox.clock.advance(10 * 60_000);
    try {
      const later = await post(sandbox, PATH, sessionBody(sandbox), {
        'x-client-request-id': headers['x-client-request-id'],
        'x-timestamp': String(sandbox.clock.now()),
      });
      expect(later.json.code).toBe('0');
    } finally {
      sandbox.clock.advance(-10 * 60_000);
    }
  });

  it('R05 for a method other than POST, R04 for an unknown service path', async () => {
    const { request } = await import('undici');
    const get = await request(`${sandbox.url}${PATH}`, { method: 'GET', headers: goodHeaders(sandbox) });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect(((await get.body.json()) as { code: string }).code).toBe('R05');
    const unknown = await post(sandbox, '/v1/checkout/void', {});
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe('R04');
  });

  it('R02 for a body that is not a JSON object, R01 for one over the limit', async () => {
    expect((await post(sandbox, PATH, '{not json')).json.code).toBe('R02');
    expect((await post(sandbox, PATH, '[1,2]')).json.code).toBe('R02');
    const small = await startSandbox({ bodyLimitBytes: 100 });
    try {
      const answer = await post(small, PATH, sessionBody(small, { description: 'x'.repeat(120) }));
      expect(answer.status).toBe(413);
      expect(answer.json.code).toBe('R01');
    } finally {
      await small.close();
    }
  });

  it('R01 is answered for a body far over the limit too, arriving in many chunks', async () => {
    const small = await startSandbox({ bodyLimitBytes: 100 });
    try {
      const answer = await post(small, PATH, sessionBody(small, { description: 'x'.repeat(256 * 1024) }));
      expect(answer.status).toBe(413);
      expect(answer.json.code).toBe('R01');
    } finally {
      await small.close();
    }
  });
});

describe('IP allow-list', () => {
  it('A07: a caller outside the list is refused; one inside passes', async () => {
    const outside = await startSandbox({ ipAllowList: ['203.0.113.0/24'] });
    const inside = await startSandbox({ ipAllowList: ['203.0.113.7', '127.0.0.1'] });
    try {
      const refused = await post(outside, PATH, sessionBody(outside));
      expect(refused.status).toBe(403);
      expect(refused.json.code).toBe('A07');
      expect((await post(inside, PATH, sessionBody(inside))).json.code).toBe('0');
    } finally {
      await Promise.all([outside.close(), inside.close()]);
    }
  });

  it('refuses a malformed allow-list entry at start', async () => {
    await expect(startSandbox({ ipAllowList: ['not-an-ip'] })).rejects.toThrow(/not an IP address/);
  });
});

describe('call-frequency limit', () => {
  it('S04 with HTTP 429 and Retry-After once the limit is exceeded; the refused call does not burn its request id', async () => {
    const sandbox = await startSandbox({ rateLimit: { limit: 2, windowMs: 300 } });
    try {
      expect((await post(sandbox, PATH, sessionBody(sandbox))).json.code).toBe('0');
      expect((await post(sandbox, PATH, sessionBody(sandbox))).json.code).toBe('0');
      const headers = goodHeaders(sandbox);
      const limited = await post(sandbox, PATH, sessionBody(sandbox), headers);
      expect(limited.status).toBe(429);
      expect(limited.json.code).toBe('S04');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 350));
      const retried = await post(sandbox, PATH, sessionBody(sandbox), headers);
      expect(retried.json.code).toBe('0');
    } finally {
      await sandbox.close();
    }
  });
});
