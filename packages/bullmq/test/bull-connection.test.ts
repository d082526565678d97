import { PaymentValidationError } from '@paymount/core';
import { Cluster, Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { webhookQueueConnection } from '../src';

/** Clients made here never connect (lazyConnect): the helper only sorts them. */
const lazy: Array<Redis | Cluster> = [];
afterAll(() => lazy.forEach((client) => client.disconnect()));

function issueOf(run: () => unknown): { path: string; rule: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof PaymentValidationError && error.issues.length === 1) {
      const [{ path, rule, message }] = error.issues as [PaymentValidationError['issues'][number]];
      return { path, rule, message };
    }
    throw error;
  }
  throw new Error('no PaymentValidationError was thrown');
}

describe("webhookQueueConnection: a BullMQ connection (as given to @nestjs/bullmq's BullModule.forRoot) as the queue's", () => {
  it('an ioredis client is passed as `client` (the queue duplicates it), options and a lone URL as `connection`', () => {
    const client = new Redis({ lazyConnect: true });
    lazy.push(client);
    expect(webhookQueueConnection(client)).toEqual({ client });
    expect(webhookQueueConnection({ host: 'redis.internal', port: 6380, db: 2 })).toEqual({ connection: { host: 'redis.internal', port: 6380, db: 2 } });
    expect(webhookQueueConnection({ url: 'redis://redis.internal:6380' })).toEqual({ connection: 'redis://redis.internal:6380' });
    // None given: BullMQ's default, a Redis on localhost:6379, is ioredis' default too.
    expect(webhookQueueConnection(undefined)).toEqual({ connection: {} });
  });

  it('refuses what the queue cannot connect with, naming the field and what to pass instead', () => {
    const cluster = new Cluster([{ host: '127.0.0.1', port: 1 }], { lazyConnect: true });
    lazy.push(cluster);
    expect(issueOf(() => webhookQueueConnection(cluster))).toEqual({
      path: 'connection',
      rule: 'type',
      message: expect.stringContaining('Redis Cluster'),
    });
    // A node-redis or Bun client: BullMQ 6 takes them, the queue's connections are ioredis ones.
    const nodeRedis = { connect: () => undefined, duplicate: () => undefined, disconnect: () => undefined };
    expect(issueOf(() => webhookQueueConnection(nodeRedis))).toEqual({ path: 'connection', rule: 'type', message: expect.stringContaining('ioredis client') });
    // ioredis takes a URL or options, not both in one object: the URL would be ignored and localhost used.
    expect(issueOf(() => webhookQueueConnection({ url: 'redis://redis.internal:6380', password: 'p4ss-w0rd-x' }))).toEqual({
      path: 'connection.url',
      rule: 'type',
      message: expect.stringContaining('either `url` or'),
    });
  });

  it('never puts a password into its error', () => {
    const error = (() => {
      try {
        webhookQueueConnection({ url: 'redis://:s3cret-pw@redis.internal:6380', db: 1 });
      } catch (caught) {
        return caught as Error;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(PaymentValidationError);
    expect(error?.message).not.toContain('s3cret-pw');
  });
});
