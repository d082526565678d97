import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions as HttpsOptions } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  rawHeaders: string[];
  body: string;
  json: Record<string, unknown>;
}

/** What the server does with one request: answer, hang without answering, or cut the connection. */
export type Reply =
  | { status?: number; headers?: Record<string, string>; body: unknown }
  | { hang: true }
  | { reset: true };

export type Responder = (request: RecordedRequest, index: number) => Reply;

export interface ServiceServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** The envelope of a success answer, as the service sends it. */
export function ok(data: Record<string, unknown>, traceId = 'trace-ok'): Reply {
  return { body: { code: '0', msg: 'success', traceId, data } };
}

/**
 * A real HTTP(S) server on 127.0.0.1 playing the payment service: every
 * request is recorded as received on the wire, and `respond` decides the
 * answer per request, so retry sequences (S04 then success, reset then
 * success) can be scripted.
 */
export async function startServiceServer(respond: Responder, tls?: HttpsOptions): Promise<ServiceServer> {
  const requests: RecordedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // Recorded as-is; the assertion on `body` tells what arrived.
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body,
        json,
      };
      requests.push(recorded);
      const reply = respond(recorded, requests.length - 1);
      if ('hang' in reply) {
        hanging.add(res);
        return;
      }
      if ('reset' in reply) {
        req.socket.resetAndDestroy();
        return;
      }
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(text);
    });
  };
  const server: Server = tls ? createHttpsServer(tls, handler) : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
