import { describe, expect, it } from 'vitest';
import { SandboxOptionsError, startSandbox, type SandboxOptions } from '../src/index';

/** zod's own wording, which no error of the sandbox may carry. */
const ZOD_WORDING = /Invalid input|Invalid option|Too small|Too big|expected .* received/;

async function refusal(options: unknown): Promise<SandboxOptionsError> {
  const error = await startSandbox(options as SandboxOptions).then(
    async (sandbox) => {
      await sandbox.close();
      throw new Error('startSandbox accepted the options');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SandboxOptionsError);
  // Still a TypeError, as the option errors were before they were gathered.
  expect(error).toBeInstanceOf(TypeError);
  expect((error as Error).message).not.toMatch(ZOD_WORDING);
  return error as SandboxOptionsError;
}

describe('startSandbox checks its options, in paymount words, every issue in one error', () => {
  it('names each field and its rule at once, an unknown option with the closest known one', async () => {
    const error = await refusal({
      port: 70_000,
      rateLimit: { limit: 0, windowMs: 1000 },
      webhookRetryDelaysMs: [10, -1],
      walletOrigin: ['https://shop.example'],
      allowLocalNotifyUrl: 'yes',
    });
    expect(error.issues).toEqual([
      { path: 'port', rule: 'max', message: 'must be at most 65535' },
      { path: 'rateLimit.limit', rule: 'min', message: 'must be at least 1' },
      { path: 'webhookRetryDelaysMs.1', rule: 'min', message: 'must be at least 0' },
      { path: 'allowLocalNotifyUrl', rule: 'type', message: 'must be true or false' },
      { path: 'walletOrigin', rule: 'unknown_field', message: 'is not an option; did you mean `walletOrigins`?' },
    ]);
    expect(error.message).toBe(
      'Invalid sandbox options: port must be at most 65535; rateLimit.limit must be at least 1; webhookRetryDelaysMs.1 must be at least 0; ' +
        'allowLocalNotifyUrl must be true or false; walletOrigin is not an option; did you mean `walletOrigins`?',
    );
  });

  it.each([
    [{ port: 'auto' }, 'port', 'type', 'port must be an integer from 0 to 65535'],
    [{ host: '' }, 'host', 'min_length', 'host must not be empty'],
    [{ clock: { now: 5 } }, 'clock.now', 'type', 'clock.now must be a function'],
    [{ rateLimit: true }, 'rateLimit', 'invalid_union', 'rateLimit must be false (no limit) or { limit, windowMs }'],
    [{ rateLimit: { limit: 5, windowMs: 0 } }, 'rateLimit.windowMs', 'min', 'rateLimit.windowMs must be more than 0'],
    [{ rateLimit: { limit: 5, windowMs: 1000, burst: 2 } }, 'rateLimit.burst', 'unknown_field', 'rateLimit.burst is not an option'],
    [{ webhookTimeoutMs: 0 }, 'webhookTimeoutMs', 'min', 'webhookTimeoutMs must be at least 1'],
    [{ bodyLimitBytes: 1.5 }, 'bodyLimitBytes', 'type', 'bodyLimitBytes must be an integer'],
    [{ ipAllowList: ['10.0.0.0/33'] }, 'ipAllowList.0', 'ip_range', 'ipAllowList.0 "10.0.0.0/33" has an invalid prefix length'],
    [{ controlAllowList: ['everyone'] }, 'controlAllowList.0', 'ip_range', 'controlAllowList.0 "everyone" is not an IP address or CIDR range'],
    [{ walletOrigins: ['https://shop.dev.example/'] }, 'walletOrigins.0', 'origin', 'walletOrigins.0 "https://shop.dev.example/" is not an origin such as https://shop.example'],
    [{ faults: { seed: 1, rate: 2, kinds: ['s04'] } }, 'faults.rate', 'max', 'faults.rate must be at most 1'],
    [{ faults: { seed: 1, rate: 0.5, kinds: [] } }, 'faults.kinds', 'min_items', 'faults.kinds must name at least one fault kind'],
    [{ faults: { seed: 1, rate: 0.5, kinds: ['explode'] } }, 'faults.kinds.0', 'one_of', 'faults.kinds.0 must be one of `http-500`'],
    [{ log: 'console' }, 'log', 'invalid_union', 'log must be a function taking a line, or false to log nothing'],
    [{ onError: true }, 'onError', 'type', 'onError must be a function'],
    [{ merchantName: 42 }, 'merchantName', 'type', 'merchantName must be a non-empty string'],
    [{ credentials: { appId: 'a'.repeat(33) } }, 'credentials.appId', 'max_length', 'credentials.appId must be 1 to 32 characters'],
    [{ credentials: { webhookSecret: 'short_secret' } }, 'credentials.webhookSecret', 'min_length', 'credentials.webhookSecret must be at least 16 characters, as a paymount client requires'],
    [{ credentials: { testApiKey: 'sk_same_key_0123456789', productionApiKey: 'sk_same_key_0123456789' } }, 'credentials.productionApiKey', 'distinct_keys', 'must differ from testApiKey'],
    [{ credentials: { webhookSecert: 'whsec_0123456789abcdef' } }, 'credentials.webhookSecert', 'unknown_field', 'credentials.webhookSecert is not an option; did you mean `webhookSecret`?'],
  ])('%j: %s breaks %s', async (options, path, rule, message) => {
    const error = await refusal(options);
    expect(error.issues).toEqual([expect.objectContaining({ path, rule })]);
    expect(error.message).toContain(message);
  });

  it('a secret in the options never appears in the error', async () => {
    const error = await refusal({ credentials: { testApiKey: 'sk_short', webhookSecret: 'whsec_short' } });
    expect(error.message).not.toContain('sk_short');
    expect(error.message).not.toContain('whsec_short');
  });

  it('anything but an object is refused as a whole', async () => {
    expect((await refusal('fast')).message).toBe('Invalid sandbox options: options must be an object');
  });
});
