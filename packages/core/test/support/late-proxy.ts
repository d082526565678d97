import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP hop in front of the service that can deliver a request late:
 * a held request reaches the service only after its delay (or never), long
 * after the client gave up, exactly as a request stuck in a network or in the
 * service's own queue would. Everything else passes straight through.
 */
export interface LateProxy {
  url: string;
  /** The next request to `path` reaches the service `delayMs` later (`'never'`: dropped; `'released'`: at release()). */
  holdNext(path: string, delayMs: number | 'never' | 'released'): void;
  /** Sends on every request held until released: the test, not a timer, decides that it arrives after what came first. */
  release(): void;
  /** Resolves once every held request that will be delivered has been answered by the service. */
  delivered(): Promise<void>;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `target()`: the service's base URL, read per request (known once the sandbox listens). */
export async function startLateProxy(target: () => string): Promise<LateProxy> {
  const holds: Array<{ path: string; delayMs: number | 'never' | 'released' }> = [];
  let release = () => {};
  let released = new Promise<void>((resolve) => (release = resolve));
  const inFlight = new Set<Promise<void>>();
  const forward = (req: IncomingMessage, body: Buffer, answer: (status: number, headers: IncomingMessage['headers'], body: Buffer) => void) =>
    new Promise<void>((resolve) => {
      const upstream = request(new URL(req.url ?? '/', target()), { method: req.method, headers: req.headers }, async (res) => {
        answer(res.statusCode ?? 502, res.headers, await bodyOf(res));
        resolve();
      });
      upstream.on('error', () => resolve());
      upstream.end(body);
    });
  const server: Server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    const index = holds.findIndex((hold) => hold.path === path);
    const reply = (status: number, headers: IncomingMessage['headers'], payload: Buffer) => {
      if (res.destroyed || res.writableEnded) return;
      res.writeHead(status, { 'content-type': headers['content-type'] ?? 'application/json' }).end(payload);
    };
    if (index === -1) {
      await forward(req, body, reply);
      return;
    }
    const delayMs = holds.splice(index, 1)[0]?.delayMs ?? 'never';
    if (delayMs === 'never') return;
    const wait = delayMs === 'released' ? released : new Promise<void>((resolve) => setTimeout(resolve, delayMs));
    const late = wait.then(() => forward(req, body, reply));
    inFlight.add(late);
    void late.finally(() => inFlight.delete(late));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    holdNext: (path, delayMs) => void holds.push({ path, delayMs }),
    release() {
      release();
      released = new Promise<void>((resolve) => (release = resolve));
    },
    async delivered() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
