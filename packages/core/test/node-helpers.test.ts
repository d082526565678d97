import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeMiddleware, silentLogger } from '../src/index';
import { errorToAnswer, jsonResponse, queryOfTarget } from '../src/entries/internal';
import { readNodeBody, toNeutralRequest, writeNeutralResponse } from '../src/entries/http';
import type { PaymentRoutes } from '../src/index';
import { sendRawPath } from '../../../tools/conformance/http';

const LIMIT = 1_000;
let server: Server;
let base: string;

/** Echoes what the helpers saw; `?consume=1` makes another reader drain the body first. */
async function echo(req: IncomingMessage) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.searchParams.has('consume')) {
    req.resume();
    await once(req, 'end');
  }
  const neutral = toNeutralRequest(req, { limitBytes: LIMIT });
  const [first, second] = await Promise.all([neutral.readBody!(), neutral.readBody!()]);
  return jsonResponse(200, {
    method: neutral.method,
    path: neutral.path,
    query: neutral.query,
    size: first.byteLength,
    sameRead: first === second,
    contextIsRequest: neutral.context === req,
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    echo(req).then(
      (response) => writeNeutralResponse(res, response),
      (error: unknown) => writeNeutralResponse(res, errorToAnswer(error, silentLogger).response),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function chunked(totalBytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      const size = Math.min(256, totalBytes - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(120));
    },
  });
}

describe('node helpers', () => {
  it('turn a Node request into the neutral request: method, path, repeated query values, one body read', async () => {
    const res = await fetch(`${base}/payments/checkout?orderId=a&tag=x&tag=y`, { method: 'post', body: 'hello' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String((await res.clone().text()).length));
    expect(await res.json()).toEqual({
      method: 'POST',
      path: '/payments/checkout',
      query: { orderId: 'a', tag: ['x', 'y'] },
      size: 5,
      sameRead: true,
      contextIsRequest: true,
    });
  });

  it('keep query keys named like Object.prototype members as plain data (`__proto__`, `constructor`)', async () => {
    const res = await fetch(`${base}/wallet/config?__proto__=x&__proto__=y&constructor=c&toString=t&orderId=o`);
    const { query } = (await res.json()) as { query: Record<string, unknown> };
    expect(Object.entries(query)).toEqual([
      ['__proto__', ['x', 'y']],
      ['constructor', 'c'],
      ['toString', 't'],
      ['orderId', 'o'],
    ]);
  });

  it('refuse a declared Content-Length over the limit with 413', async () => {
    const res = await fetch(`${base}/`, { method: 'POST', body: 'x'.repeat(LIMIT + 1) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: { code: 'BODY_TOO_LARGE', message: 'The request body is too large.' } });
  });

  it('refuse a chunked body that grows past the limit with 413, draining the rest', async () => {
    const res = await fetch(`${base}/`, { method: 'POST', body: chunked(LIMIT * 20), duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    const withinLimit = await fetch(`${base}/`, { method: 'POST', body: chunked(LIMIT), duplex: 'half' } as RequestInit);
    expect(await withinLimit.json()).toMatchObject({ size: LIMIT });
  });

  it('say how to fix the mounting when another middleware already read the body', async () => {
    const res = await fetch(`${base}/?consume=1`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      error: {
        code: 'BODY_ALREADY_CONSUMED',
        message: 'The request body was already read by another middleware. Mount the payment routes before any body parser.',
      },
    });
  });

  it('readNodeBody resolves an empty body for a request without one', async () => {
    const sizes: number[] = [];
    const local = createServer((req, res) => {
      void readNodeBody(req, 10).then((bytes) => {
        sizes.push(bytes.byteLength);
        res.end();
      });
    });
    local.listen(0, '127.0.0.1');
    await once(local, 'listening');
    await fetch(`http://127.0.0.1:${(local.address() as AddressInfo).port}/`);
    local.closeAllConnections();
    local.close();
    expect(sizes).toEqual([0]);
  });
});

describe('createNodeMiddleware', () => {
  it('hands a failure to write the response to next, not to an unhandled rejection', async () => {
    // A header value Node refuses to send (outside Latin-1) makes writing the response throw.
    const handlers = { handle: async () => ({ status: 303, headers: { location: 'https://pay.example.com/€' }, body: '' }) };
    const payments = createNodeMiddleware(handlers as unknown as PaymentRoutes);
    const errors: unknown[] = [];
    const local = createServer((req, res) =>
      payments(req, res, (error) => {
        errors.push(error);
        res.writeHead(500).end();
      }),
    );
    local.listen(0, '127.0.0.1');
    await once(local, 'listening');
    const res = await fetch(`http://127.0.0.1:${(local.address() as AddressInfo).port}/checkout`, { method: 'POST' });
    local.closeAllConnections();
    local.close();
    expect(res.status).toBe(500);
    expect(errors).toEqual([expect.objectContaining({ code: 'ERR_INVALID_CHAR' })]);
  });

  it('routes a request in absolute form (as sent to a proxy) on its path as sent, and refuses its dot segments', async () => {
    const handlers = { handle: async (req: { path: string }) => jsonResponse(200, { path: req.path }) };
    const payments = createNodeMiddleware(handlers as unknown as PaymentRoutes, { mountPath: '/payments' });
    const local = createServer((req, res) => payments(req, res));
    local.listen(0, '127.0.0.1');
    await once(local, 'listening');
    const origin = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
    const plain = await sendRawPath(origin, 'http://shop.example/payments/checkout?orderId=o');
    const dotted = await sendRawPath(origin, 'http://shop.example/payments/x/../checkout');
    local.closeAllConnections();
    local.close();
    expect([plain.status, plain.json]).toEqual([200, { path: '/checkout' }]);
    expect(dotted.status).toBe(404);
  });
});

describe('queryOfTarget', () => {
  it('reads the query of a request target as new URL(target, base).searchParams does, repeated keys in order', () => {
    const targets = ['/status', '/status?', '/status?orderId=o-1', '/s?a=1&a=2&b=%20x+y', '/s?a=%C3%A9&__proto__=1#frag', 'http://shop.test/s?x=1', '/s?k', '/s?=v&&a=b'];
    for (const target of targets) {
      const expected = Object.create(null) as Record<string, string | string[]>;
      for (const [key, value] of new URL(target, 'http://localhost').searchParams) {
        const previous = expected[key];
        expected[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
      }
      expect(queryOfTarget(target), target).toStrictEqual(expected);
    }
    expect(Object.getPrototypeOf(queryOfTarget('/s'))).toBeNull();
  });
});
