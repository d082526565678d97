import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { describeRouteConformance } from '../../../tools/conformance';
import { createFetchHandler, type FetchHandler } from '../src/index';

/** What a Fetch-API server does natively: Node request in as a Request, the Response written back. */
function serveFetch(handler: FetchHandler, origin: string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(new URL(req.url ?? '/', origin), {
      method: req.method ?? 'GET',
      headers: Object.entries(req.headers).flatMap(([name, value]) =>
        (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v) => [name, v] as [string, string]),
      ),
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    } as RequestInit);
    void handler(request).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  };
}

describeRouteConformance('fetch handler', {
  serverResolvesPaths: true,
  async startApp(options) {
    const handler = createFetchHandler(options, {
      mountPath: '/payments',
      notFound: (request) =>
        new URL(request.url).pathname === '/payments/own-route' && request.method === 'GET'
          ? Response.json({ own: true })
          : new Response('Not Found', { status: 404 }),
    });
    let origin = '';
    const server = createServer((req, res) => serveFetch(handler, origin)(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      url: `${origin}/payments`,
      async close() {
        server.closeAllConnections();
        server.close();
        await handler.paymentRoutes.close();
      },
    };
  },
});
