import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { readBody } from '../src/http-io';

type Outcome = { body: string } | { error: string };

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that reads every request's body with `readBody` and records each outcome, also any that comes later. */
async function recordingServer(limitBytes: number): Promise<{ url: string; port: number; outcomes: Outcome[]; requests: IncomingMessage[] }> {
  const outcomes: Outcome[] = [];
  const requests: IncomingMessage[] = [];
  server = createServer((req, res) => {
    requests.push(req);
    readBody(req, limitBytes).then(
      (body) => {
        outcomes.push({ body: body.toString('utf8') });
        res.end('ok');
      },
      (error: Error) => {
        outcomes.push({ error: error.message });
        if (!res.destroyed) res.end('refused');
      },
    );
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, outcomes, requests };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('readBody', () => {
  it('gives the whole body once, and nothing more when the request then closes', async () => {
    const { url, outcomes, requests } = await recordingServer(1024);
    const res = await request(url, { method: 'POST', body: 'a'.repeat(600), headers: { connection: 'close' } });
    await res.body.text();
    await settle();
    expect(requests[0]!.destroyed).toBe(true);
    expect(outcomes).toEqual([{ body: 'a'.repeat(600) }]);
  });

  it('refuses a body over the limit once, however many chunks follow', async () => {
    const { url, outcomes } = await recordingServer(10);
    const res = await request(url, { method: 'POST', body: ['a'.repeat(8), 'b'.repeat(8), 'c'.repeat(8)].join('') });
    expect(await res.body.text()).toBe('refused');
    await settle();
    expect(outcomes).toEqual([{ error: 'request body is larger than 10 bytes' }]);
  });

  it('rejects once when the caller hangs up before the body ended (Node reports it aborted, then closed)', async () => {
    const { port, outcomes } = await recordingServer(1024);
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\nonly part of it');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await settle();
    expect(outcomes).toEqual([{ error: 'aborted' }]);
  });
});
