import pg from 'pg';

/**
 * A `pg` pool for tests on a server they start, stop and crash. Without an 'error'
 * listener, an idle connection the server ends (a restart, a crash, or the server's
 * stop racing the pool's own `end()`, whose sockets close after it resolves) is an
 * uncaught exception that fails the whole test run; the pool replaces the connection.
 */
export function testPool(url: string, config: Omit<pg.PoolConfig, 'connectionString'> = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 2_000, ...config });
  pool.on('error', () => {});
  return pool;
}
