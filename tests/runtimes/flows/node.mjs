// @ts-check
// `node flows/node.mjs '<config JSON>'`: the flows on Node, the baseline the other runtimes are held to.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { runFlows } from './flows.mjs';
import { printResult } from './report.mjs';

const result = await runFlows(JSON.parse(process.argv[2] ?? '{}'), async (handler) => {
  const server = createServer((req, res) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers: /** @type {Record<string, string>} */ (req.headers),
      ...(hasBody ? { body: /** @type {ReadableStream<Uint8Array>} */ (Readable.toWeb(req)), duplex: 'half' } : {}),
    });
    void handler(request).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(new Uint8Array(await response.arrayBuffer()));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
    },
  };
});
printResult({ runtime: `node ${process.versions.node}`, ...result });
process.exit(0);
