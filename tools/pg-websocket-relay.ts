import { once } from 'node:events';
import { connect } from 'node:net';
import { neonConfig, Pool } from '@neondatabase/serverless';
import ws, { WebSocketServer } from 'ws';

export interface PgWebSocketRelay {
  /** `127.0.0.1:<port>`: what Neon's `neonConfig.wsProxy` answers, the driver adding `/v1?address=…`. */
  readonly host: string;
  /** WebSockets accepted so far: proof that a driver went through the relay. */
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * What Neon's proxy does in front of its databases, for a local server: each
 * WebSocket the serverless driver opens becomes one TCP connection to
 * PostgreSQL at `target` (`host:port`), bytes piped both ways unchanged. The
 * driver's own `address` is ignored: this relay reaches one server only.
 */
export async function startPgWebSocketRelay(target: { host: string; port: number }): Promise<PgWebSocketRelay> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  let connections = 0;
  server.on('connection', (socket) => {
    connections += 1;
    const tcp = connect(target.port, target.host);
    // Bytes the driver sends before the TCP connection is up wait in the socket's own buffer.
    socket.on('message', (data: Buffer) => tcp.write(data));
    tcp.on('data', (data) => socket.send(data, { binary: true }));
    socket.on('close', () => tcp.end());
    socket.on('error', () => tcp.destroy());
    tcp.on('close', () => socket.close());
    tcp.on('error', () => socket.terminate());
  });
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the relay was given no TCP port');
  return {
    host: `127.0.0.1:${address.port}`,
    get connections() {
      return connections;
    },
    close: async () => {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/**
 * Neon's serverless Pool as on the edge, its WebSocket sent through a relay
 * to the local server at `url` as Neon's local set-ups do: plain ws://, and
 * neither TLS nor the start-up pipelined (a relay answers no TLS, and the
 * server asks no password). `end()` ends the pool, then the relay.
 */
export async function neonPoolThroughRelay(url: string, max: number): Promise<{ pool: Pool; end(): Promise<void> }> {
  const { hostname, port } = new URL(url);
  const relay = await startPgWebSocketRelay({ host: hostname, port: Number(port) });
  // Node 20 has no global WebSocket.
  neonConfig.webSocketConstructor = ws;
  neonConfig.wsProxy = () => `${relay.host}/v1`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  neonConfig.pipelineConnect = false;
  const pool = new Pool({ connectionString: url, max });
  pool.on('error', () => {});
  return {
    pool,
    end: async () => {
      await pool.end();
      await relay.close();
    },
  };
}
