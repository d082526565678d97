import { createPaymentClient } from '@paymount/core';
import { describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/index';
import { post, sessionBody } from './helpers';

const PATH = '/v1/checkout/create-session';

/** Runs `steps` against a sandbox started with `options`, closing it after. */
async function withSandbox(options: SandboxOptions, steps: (sandbox: Sandbox) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox({ log: false, announce: false, ...options });
  try {
    await steps(sandbox);
  } finally {
    await sandbox.close();
  }
}

/**
 * Each refusal a developer can lift on their own machine names how, as V10
 * names allowLocalNotifyUrl; the fix it names, applied, lets the same request
 * through (so the option it names exists and is the right one).
 */
describe('service refusals with a local fix name it', () => {
  it('S04: the call-frequency limit names rateLimit: false (CLI --rate-limit off), which lifts it', async () => {
    await withSandbox({ rateLimit: { limit: 1, windowMs: 60_000 } }, async (sandbox) => {
      expect((await post(sandbox, PATH, sessionBody(sandbox))).json.code).toBe('0');
      const limited = await post(sandbox, PATH, sessionBody(sandbox));
      expect(limited.json.code).toBe('S04');
      expect(limited.json.msg).toBe(
        'call frequency limit exceeded (this sandbox allows 1 call per 60000 ms): reduce concurrency or retry after waiting; ' +
          'for local development against this sandbox, start it with `startSandbox({ rateLimit: false })` (CLI: --rate-limit off) or a higher `rateLimit: { limit, windowMs }`',
      );
    });
    await withSandbox({ rateLimit: false }, async (sandbox) => {
      for (let i = 0; i < 3; i++) expect((await post(sandbox, PATH, sessionBody(sandbox))).json.code).toBe('0');
    });
  });

  it('R01: a body over the limit names bodyLimitBytes, which a larger value lifts', async () => {
    // Over 256 bytes with its 100-character description; well under 4096.
    const body = (sandbox: Sandbox) => ({ ...sessionBody(sandbox), description: 'd'.repeat(100) });
    await withSandbox({ bodyLimitBytes: 256 }, async (sandbox) => {
      const refused = await post(sandbox, PATH, body(sandbox));
      expect(refused.status).toBe(413);
      expect(refused.json.code).toBe('R01');
      expect(refused.json.msg).toBe(
        'request body is larger than 256 bytes; for local development against this sandbox, start it with a larger `startSandbox({ bodyLimitBytes: <bytes> })`',
      );
    });
    await withSandbox({ bodyLimitBytes: 4096 }, async (sandbox) => {
      expect((await post(sandbox, PATH, body(sandbox))).json.code).toBe('0');
    });
  });

  it('A07: a caller off the IP allow-list is named, with the ipAllowList entry (CLI --ip-allow) that lets it in', async () => {
    await withSandbox({ ipAllowList: ['203.0.113.0/24'] }, async (sandbox) => {
      const refused = await post(sandbox, PATH, sessionBody(sandbox));
      expect(refused.json.code).toBe('A07');
      expect(refused.json.msg).toBe(
        'caller address 127.0.0.1 is not on the IP allow-list of this application; for local development against this sandbox, ' +
          "add it to its list: `startSandbox({ ipAllowList: [..., '127.0.0.1'] })` (CLI: --ip-allow 127.0.0.1)",
      );
    });
    await withSandbox({ ipAllowList: ['203.0.113.0/24', '127.0.0.1'] }, async (sandbox) => {
      expect((await post(sandbox, PATH, sessionBody(sandbox))).json.code).toBe('0');
    });
  });

  it("A04: a timestamp off the sandbox's clock names the clock: a client from sandbox.clientOptions() follows it", async () => {
    await withSandbox({ clock: { now: () => Date.UTC(2030, 0, 1, 12) } }, async (sandbox) => {
      const before = String(sandbox.clock.now());
      sandbox.clock.advance(11 * 60_000);
      const refused = await post(sandbox, PATH, sessionBody(sandbox), { 'x-timestamp': before });
      expect(refused.json.code).toBe('A04');
      expect(refused.json.msg).toBe(
        "X-Timestamp is 11 minutes behind the sandbox's clock (2030-01-01T12:11:00.000Z), more than the 10 minutes allowed; " +
          "for local development against this sandbox, give the client the sandbox's time: `createPaymentClient({ ...sandbox.clientOptions() })` " +
          'reads it from `sandbox.clock`, or `sandbox.clock.reset()` (POST /sandbox/clock/reset) puts the clock back',
      );
      // The fix as named: a client with the sandbox's options stays in the window the moved clock sets.
      const client = createPaymentClient({ ...sandbox.clientOptions(), logger: false });
      try {
        const session = await client.createCheckoutSession({
          referenceOrderId: 'order-clock-1',
          description: 'A mug',
          amount: { orderAmount: 1250, priceCurrency: 'USD' },
        });
        expect(session.sessionId).toBeTruthy();
      } finally {
        await client.close();
      }
    });
  });

  it('A02: a key of neither environment names sandbox.clientOptions() and the credentials option, without echoing a key', async () => {
    await withSandbox({}, async (sandbox) => {
      const wrongKey = 'sk_test_not_this_sandboxes_key';
      const refused = await post(sandbox, PATH, sessionBody(sandbox), { authorization: `Bearer ${wrongKey}` });
      expect(refused.json.code).toBe('A02');
      expect(refused.json.msg).toBe(
        'API key is not valid for the test or the production environment; for local development against this sandbox, ' +
          'configure the client with its key: `createPaymentClient({ ...sandbox.clientOptions() })` (the test key, `sandbox.apiKey`), ' +
          'or start it with yours: `startSandbox({ credentials: { testApiKey } })` (CLI: --test-api-key)',
      );
      expect(refused.text).not.toContain(wrongKey);
      expect(refused.text).not.toContain(sandbox.testApiKey);
    });
    await withSandbox({ credentials: { testApiKey: 'sk_test_not_this_sandboxes_key' } }, async (sandbox) => {
      const answer = await post(sandbox, PATH, sessionBody(sandbox), { authorization: 'Bearer sk_test_not_this_sandboxes_key' });
      expect(answer.json.code).toBe('0');
    });
  });
});
