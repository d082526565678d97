import { once } from 'node:events';
import { PaymentStoreUnavailableError, PaymentValidationError, type Logger } from '@paymount/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRedisStores, RedisIdempotencyStore, type RedisStores, type RedisStoresOptions } from '../src';
import { redisSkipped, startRedisServer, type RedisServer } from '../../../tools/redis-server';

/**
 * Security review, finding 2 (Redis half): a Redis that loses keys (no
 * persistence, eviction) drops order attempts and locks, and can let an order
 * be charged twice. Each case starts a real redis-server with the settings
 * under test and reads what the stores logged on their first connection.
 */
interface Line {
  level: keyof Logger;
  text: string;
}

const durabilityLines = (lines: Line[]) => lines.filter((line) => /Redis can lose|could not check|refuse to run/.test(line.text));

function capture(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at =
    (level: keyof Logger) =>
    (objOrMsg: object | string, msg?: string): void =>
      void lines.push({ level, text: typeof objOrMsg === 'string' ? objOrMsg : (msg ?? '') });
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

const servers: RedisServer[] = [];
const opened: RedisStores[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((stores) => stores.close()));
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  vi.restoreAllMocks();
});

/** Both stores on a fresh server started with `config`, once connected. */
async function storesOn(config: string[], options: Partial<RedisStoresOptions> = {}) {
  const server = await startRedisServer(config);
  servers.push(server);
  const log = capture();
  // ioredis's own ready check sends INFO: a server without INFO needs it off.
  const connection = { host: '127.0.0.1', port: server.port, enableReadyCheck: !config.includes('INFO') };
  const stores = createRedisStores({ connection, logger: log.logger, ...options });
  opened.push(stores);
  if (stores.client.status !== 'ready') await once(stores.client, 'ready', { signal: AbortSignal.timeout(10_000) });
  return { stores, lines: log.lines };
}

/** The check's lines once it logged (it runs in the background after the first connection). */
async function loggedBy(lines: Line[], count = 1): Promise<Line[]> {
  await vi.waitFor(() => expect(durabilityLines(lines)).toHaveLength(count), { timeout: 5_000, interval: 10 });
  return durabilityLines(lines);
}


describe.skipIf(redisSkipped())('the Redis stores check persistence and eviction on their first connection', () => {
  it('no persistence (appendonly no, save ""): one warning for both stores, naming what is lost and `appendonly yes`; the stores still work', async () => {
    const { stores, lines } = await storesOn([]);
    const warnings = await loggedBy(lines);
    // Both stores share the client: one check, one line, however long one waits.
    await stores.client.ping();
    expect(durabilityLines(lines)).toHaveLength(1);
    expect(warnings[0]?.level).toBe('warn');
    expect(warnings[0]?.text).toContain('order attempts and locks (a payment in flight loses its lock, and the next payment of an order is settled from the records of the service: a declined first attempt is answered again)');
    expect(warnings[0]?.text).toContain('appendonly no and save ""');
    expect(warnings[0]?.text).toContain('set `appendonly yes`');
    expect(warnings[0]?.text).toContain('requireDurability: true');
    expect(warnings[0]?.text).not.toContain('maxmemory-policy');
    expect(await stores.idempotency.claim('k', 10_000)).toBe(true);
    expect(await stores.orders.lock('order-1', 10_000)).toEqual(expect.any(String));
  });

  it('AOF and noeviction: nothing logged, and requireDurability: true accepts it', async () => {
    // requireDurability makes the first operation wait for the check: its success means the check passed.
    const { stores, lines } = await storesOn(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction'], { requireDurability: true });
    expect(await stores.idempotency.claim('k', 10_000)).toBe(true);
    expect(await stores.orders.lock('order-1', 10_000)).toEqual(expect.any(String));
    expect(durabilityLines(lines)).toEqual([]);
  });

  it('RDB snapshots only: warned that the writes since the last snapshot are lost, with `appendonly yes`', async () => {
    const { lines } = await storesOn(['--save', '3600 1 300 100']);
    const [warning] = await loggedBy(lines);
    expect(warning?.text).toContain('appendonly no and save "3600 1 300 100": only RDB snapshots persist');
    expect(warning?.text).toContain('set `appendonly yes`');
  });

  it('an evicting policy (allkeys-lru, volatile-lru) with AOF: warned with `maxmemory-policy noeviction` and nothing about persistence', async () => {
    for (const policy of ['allkeys-lru', 'volatile-lru']) {
      const { lines } = await storesOn(['--appendonly', 'yes', '--maxmemory-policy', policy]);
      const warnings = await loggedBy(lines);
      expect(warnings[0]?.text).toContain(`maxmemory-policy ${policy}: keys are evicted`);
      expect(warnings[0]?.text).toContain('set `maxmemory-policy noeviction`');
      expect(warnings[0]?.text).not.toContain('appendonly');
    }
  });

  it('CONFIG renamed away (managed Redis): the settings are read from INFO instead', async () => {
    const { lines } = await storesOn(['--rename-command', 'CONFIG', '', '--maxmemory-policy', 'allkeys-lru']);
    const [warning] = await loggedBy(lines);
    expect(warning?.text).toContain('aof_enabled:0');
    expect(warning?.text).toContain('set `appendonly yes`');
    expect(warning?.text).toContain('set `maxmemory-policy noeviction`');
  });

  it('CONFIG and INFO both renamed away: says the check could not run and what to verify by hand', async () => {
    const { stores, lines } = await storesOn(['--rename-command', 'CONFIG', '', '--rename-command', 'INFO', '']);
    const warnings = await loggedBy(lines);
    expect(warnings[0]?.level).toBe('warn');
    expect(warnings[0]?.text).toMatch(/^could not check whether Redis keeps what the payment stores write \(CONFIG GET: .*unknown command.*; INFO: .*unknown command.*\)/i);
    expect(warnings[0]?.text).toContain('Verify by hand that it runs with `appendonly yes` and `maxmemory-policy noeviction`');
    expect(await stores.idempotency.claim('k', 10_000)).toBe(true);
  });

  it('requireDurability: true refuses a Redis without persistence: every operation fails with the reason, logged once as an error, nothing written', async () => {
    const { stores, lines } = await storesOn([], { requireDurability: true });
    await expect(stores.idempotency.claim('k', 10_000)).rejects.toThrow(PaymentStoreUnavailableError);
    const refusals = durabilityLines(lines);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]?.level).toBe('error');
    expect(refusals[0]?.text).toContain('Redis stores refuse to run');
    expect(refusals[0]?.text).toContain('set `appendonly yes`');
    await expect(stores.orders.lock('order-1', 10_000)).rejects.toThrow(/requireDurability.*appendonly yes/);
    expect(await stores.client.dbsize()).toBe(0);
  });

  it('requireDurability: true refuses a Redis it cannot check', async () => {
    const { stores, lines } = await storesOn(['--rename-command', 'CONFIG', '', '--rename-command', 'INFO', ''], { requireDurability: true });
    await expect(stores.idempotency.claim('k', 10_000)).rejects.toThrow(/could not check/);
    expect(durabilityLines(lines).map((line) => line.level)).toEqual(['error']);
    expect(durabilityLines(lines)[0]?.text).toContain('once verified, leave requireDurability unset');
  });

  it('without a logger the warning is on the console: visible with no configuration', async () => {
    const server = await startRedisServer([]);
    servers.push(server);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const store = new RedisIdempotencyStore({ connection: server.url });
    try {
      const warned = () => warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('Redis can lose'));
      await vi.waitFor(() => expect(warned()).toHaveLength(1), { timeout: 5_000, interval: 10 });
      expect(warned()[0]).toMatch(/^paymount warn: Redis can lose/);
    } finally {
      await store.close();
    }
  });

  it('refuses a requireDurability that is not a boolean, naming the field', () => {
    try {
      createRedisStores({ connection: 'redis://127.0.0.1:1', requireDurability: 'yes' as unknown as boolean });
    } catch (error) {
      expect(error).toBeInstanceOf(PaymentValidationError);
      expect((error as PaymentValidationError).issues).toEqual([expect.objectContaining({ path: 'requireDurability', message: 'must be true or false' })]);
      return;
    }
    throw new Error('expected a PaymentValidationError');
  });
});
