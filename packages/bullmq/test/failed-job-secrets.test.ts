import type { Redis } from 'ioredis';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { paymountQueue } from './support/cli';
import { startQueuedApp, type QueuedApp } from './support/queued-app';
import { recordingLogger } from './support/recording-logger';
import { adminClient, appConfig, eventKeyOf } from './support/scenario';
import { waitFor } from './support/wait';

/** The queue's own Redis user: the dead-letter line must name it, never its password. */
const QUEUE_USER = 'shopqueue';
const QUEUE_PASSWORD = 'queue-pass-7d1c0f3e9b';
/** Each paymount-queue run starts a Node process: seconds apiece on a busy machine. */
const CLI_TEST_MS = 60_000;

/** Every value Redis holds, whatever the key's type: where a secret kept by BullMQ would be found. */
async function everythingIn(client: Redis): Promise<string> {
  const values: string[] = [];
  for (const key of await client.keys('*')) {
    const type = await client.type(key);
    if (type === 'string') values.push((await client.get(key)) ?? '');
    else if (type === 'hash') values.push(JSON.stringify(await client.hgetall(key)));
    else if (type === 'list') values.push(...(await client.lrange(key, 0, -1)));
    else if (type === 'set') values.push(...(await client.smembers(key)));
    else if (type === 'zset') values.push(...(await client.zrange(key, 0, -1)));
    else if (type === 'stream') values.push(JSON.stringify(await client.xrange(key, '-', '+')));
    values.push(key);
  }
  return values.join('\n');
}

describe.skipIf(redisSkipped())('a queued handler failing with an error that quotes a secret', () => {
  let redis: RedisServer;
  let sandbox: Sandbox;
  let app: QueuedApp;
  let admin: Redis;
  const logger = recordingLogger();
  const effects: string[] = [];
  let broken = true;

  beforeAll(async () => {
    // The queue connects as a user with a password, as a production Redis would ask.
    redis = await startRedisServer(['--user', QUEUE_USER, 'on', `>${QUEUE_PASSWORD}`, '~*', '&*', '+@all']);
    sandbox = await startSandbox({ allowLocalNotifyUrl: true });
    const onEvent = (event: { transactionId?: string }) => {
      if (broken) throw new Error(`the ERP refused API key ${sandbox.apiKey} (webhook secret ${sandbox.webhookSecret})`);
      effects.push(event.transactionId ?? '-');
    };
    const config = appConfig(sandbox, redis, 'secrets', {
      attempts: 1,
      queuePrefix: 'shop',
      queueRedisUrl: `redis://${QUEUE_USER}:${QUEUE_PASSWORD}@127.0.0.1:${redis.port}/0`,
      workers: { concurrency: 1 },
    });
    app = await startQueuedApp(config, onEvent, { logger });
    admin = adminClient(redis);
  });
  afterAll(async () => {
    admin?.disconnect();
    await app?.close();
    await sandbox?.close();
    await redis?.stop();
  });

  it('is kept by BullMQ and listed by paymount-queue with the secrets cut out; the dead-letter line\'s command, copied, retries it on the queue\'s Redis', async () => {
    const secrets = [sandbox.apiKey, sandbox.webhookSecret];
    const delivery = await sandbox.trigger('payment.succeeded', { forwardTo: `${app.routesUrl}/webhook` });
    expect(delivery.attempts).toEqual([expect.objectContaining({ status: 200 })]);
    const key = await eventKeyOf(sandbox, delivery);
    await waitFor('the job to be dead-lettered', async () => (await app.queue.listFailed()).length === 1);

    const stored = await everythingIn(admin);
    expect(stored).toContain('the ERP refused API key [REDACTED] (webhook secret [REDACTED])');
    for (const secret of secrets) expect(stored).not.toContain(secret);

    const cli = (...args: string[]) => paymountQueue([...args, '--redis', `redis://${QUEUE_USER}:${QUEUE_PASSWORD}@127.0.0.1:${redis.port}`, '--queue', 'secrets', '--prefix', 'shop']);
    const text = await cli('list-failed');
    const json = await cli('list-failed', '--json');
    expect(text.stdout).toContain('the ERP refused API key [REDACTED]');
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ failedReason: 'the ERP refused API key [REDACTED] (webhook secret [REDACTED])' })]);
    for (const secret of secrets) expect(text.stdout + json.stdout).not.toContain(secret);

    // The dead-letter line names the queue's Redis, user, name and prefix, with a placeholder for the password.
    const deadLetter = logger.entries.find((entry) => entry.level === 'error' && entry.fields['key'] === key)!;
    const command = /`?npx paymount-queue (retry [^`(]+?)\s*(\(|$)/.exec(deadLetter.message)?.[1];
    expect(command).toBe(`retry ${key.replaceAll(':', '.')} --redis 'redis://${QUEUE_USER}:<password>@127.0.0.1:${redis.port}' --queue secrets --prefix shop`);
    expect(deadLetter.message).not.toContain(QUEUE_PASSWORD);
    for (const entry of logger.entries) for (const secret of [...secrets, QUEUE_PASSWORD]) expect(JSON.stringify(entry)).not.toContain(secret);

    // Copied as a shell would read it, the password put in its place: the event is sent back and handled.
    broken = false;
    const args = command!.replace('<password>', QUEUE_PASSWORD).replaceAll("'", '').split(' ');
    expect(await paymountQueue(args)).toMatchObject({ code: 0 });
    await waitFor('the retried job to be handled', () => effects.length === 1);
    expect(effects).toEqual([delivery.payload['transactionId']]);
  }, CLI_TEST_MS);
});
