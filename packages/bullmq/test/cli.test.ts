import { describe, expect, it } from 'vitest';
import { DEFAULT_QUEUE_NAME, DEFAULT_TIMEOUT_MS } from '../src';
import { paymountQueue } from './support/cli';

/** Nothing listens on port 1: the connection is refused, again and again. */
const UNREACHABLE = 'redis://127.0.0.1:1';

describe('paymount-queue, the built bin', () => {
  it('exits 2 within its deadline when the queue’s Redis cannot be reached, and says what to check', async () => {
    for (const command of [['list-failed'], ['retry', '--all'], ['retry', 'event.abc']]) {
      const result = await paymountQueue([...command, '--redis', UNREACHABLE]);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toContain(`Redis at 127.0.0.1:1 did not answer within ${DEFAULT_TIMEOUT_MS} ms`);
      expect(result.stderr).toContain('--redis / REDIS_URL');
    }
  }, 120_000);

  it('--help prints the usage, which promises that exit code, and exits 0', async () => {
    const help = await paymountQueue(['--help']);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: paymount-queue <command>') });
    expect(help.stdout).toContain(`default ${DEFAULT_QUEUE_NAME}`);
    expect(help.stdout).toMatch(/2 +bad usage, or the queue could not be reached/);
  }, 60_000);
});
