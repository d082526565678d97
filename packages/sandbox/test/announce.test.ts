import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../src';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('the start-up announcement', () => {
  it('in development, writes once where the sandbox listens, its dashboard, the webhook secret and a trigger command, never the API key', async () => {
    vi.stubEnv('NODE_ENV', 'development');
    const written: string[] = [];
    vi.spyOn(console, 'info').mockImplementation((line: unknown) => void written.push(String(line)));
    sandbox = await startSandbox();
    expect(written).toHaveLength(1);
    const text = written[0]!;
    expect(text).toContain(`listens at ${sandbox.url}`);
    expect(text).toContain(sandbox.dashboardUrl);
    expect(text).toContain(`webhook secret (a test value; sign test deliveries with it): ${sandbox.webhookSecret}`);
    expect(text).toContain(`  send a test webhook: npx paymount-sandbox trigger payment.succeeded --forward-to <your webhook URL> --sandbox-url ${sandbox.url}`);
    expect(text).not.toContain(sandbox.apiKey);
  });

  it('goes to the log option when given, and not at all with log: false', async () => {
    vi.stubEnv('NODE_ENV', 'development');
    const logged: string[] = [];
    sandbox = await startSandbox({ log: (line) => void logged.push(line) });
    expect(logged).toEqual([expect.stringContaining(sandbox.webhookSecret)]);
    await sandbox.close();
    const info = vi.spyOn(console, 'info');
    sandbox = await startSandbox({ log: false });
    expect(info).not.toHaveBeenCalled();
  });

  it.each(['production', 'test'])('is off under NODE_ENV=%s unless asked for', async (environment) => {
    vi.stubEnv('NODE_ENV', environment);
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    sandbox = await startSandbox();
    expect(info).not.toHaveBeenCalled();
    await sandbox.close();
    sandbox = await startSandbox({ announce: true });
    expect(info).toHaveBeenCalledTimes(1);
  });
});
