import { once } from 'node:events';
import { connect } from 'node:net';
import { WebSocketServer } from 'ws';

export interface PgWebSocketRelay {
  /** `127.0.0.1:<port>`: what Neon's `neonConfig.wsProxy` answers, the driver adding `/v1?address=…`. */
  readonly host: string;
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
  server.on('connection', (socket) => {
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
    close: async () => {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
