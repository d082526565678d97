import { once } from 'node:events';
import { createServer } from 'node:net';

/** A TCP port free on `host` right now (the OS picks it), for a server a test starts. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer();
  server.listen(0, host);
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no TCP port was assigned');
  return address.port;
}
