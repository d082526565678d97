import { once } from 'node:events';
import { PaymentValidationError } from '@paymount/core';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';
import { createWebhookQueue, startWebhookWorkers } from '../src';

function issuesOf(run: () => unknown): Array<{ path: string; rule: string; message: string }> {
  try {
    run();
  } catch (error) {
    if (error instanceof PaymentValidationError) return error.issues.map(({ path, rule, message }) => ({ path, rule, message }));
    throw error;
  }
  throw new Error('no PaymentValidationError was thrown');
}

describe('options', () => {
  it('refuses both or neither of connection and client, naming the rule', () => {
    expect(issuesOf(() => createWebhookQueue({}))).toEqual([expect.objectContaining({ path: '', rule: 'one_connection_option' })]);
    expect(issuesOf(() => createWebhookQueue({ connection: 'redis://127.0.0.1:1', client: new Redis({ lazyConnect: true }) }))).toEqual([
      expect.objectContaining({ path: '', rule: 'one_connection_option' }),
    ]);
  });

  it('refuses a queue name BullMQ cannot take, a misspelt option and attempts out of range', () => {
    const connection = 'redis://127.0.0.1:1';
    expect(issuesOf(() => createWebhookQueue({ connection, name: 'pay:ments' }))).toEqual([expect.objectContaining({ path: 'name', rule: 'pattern', message: expect.stringContaining('refuses `:`') })]);
    expect(issuesOf(() => createWebhookQueue({ connection, attempt: 3 } as never))).toEqual([expect.objectContaining({ rule: 'unknown_field', message: expect.stringContaining('attempt') })]);
    expect(issuesOf(() => createWebhookQueue({ connection, attempts: 0 }))).toEqual([expect.objectContaining({ path: 'attempts', message: 'must be greater than 0' })]);
  });
});

describe.skipIf(redisSkipped())('an existing ioredis client (e.g. the one @nestjs/bullmq uses)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('is duplicated for the queue and its workers, and left open by close()', async () => {
    const client = new Redis(redis.url);
    await once(client, 'ready');
    const queue = createWebhookQueue({ client, name: 'shared' });
    expect(issuesOf(() => startWebhookWorkers(queue, { routes: {} as never }))).toEqual([expect.objectContaining({ path: 'routes', message: expect.stringContaining('webhook.processing') })]);
    await queue.bullQueue.waitUntilReady();
    expect(await queue.depth()).toBe(0);
    await queue.close();
    expect(client.status).toBe('ready');
    expect(await client.ping()).toBe('PONG');
    await client.quit();
  });
});
