import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerHeaders, readDelivery } from '../../../../tools/webhook-forwarding';

/**
 * The notifyUrl of several app instances: each delivery goes, byte for byte
 * with its signature headers, to the next instance in turn, as a load
 * balancer sends it. Answers with that instance's status.
 */
export async function startBalancer(targets: readonly string[]): Promise<{ url: string; statuses: number[]; close(): void }> {
  let next = 0;
  const statuses: number[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const { body, headers } = await readDelivery(req);
      const target = targets[next++ % targets.length];
      const response = await fetch(`${target}/webhook`, { method: 'POST', headers, body }).catch(() => undefined);
      const status = response?.status ?? 502;
      statuses.push(status);
      res.writeHead(status, response ? answerHeaders(response) : {}).end(response ? await response.text() : '');
    })();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    statuses,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
