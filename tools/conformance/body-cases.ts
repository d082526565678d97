import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { recorder, type ConformanceContext, type ConformanceTarget } from './context';
import { BODY_LIMIT_BYTES, freshOrderId } from './fixtures';
import { postRaw, postUnread } from './http';

/** What came back on a connection whose body never finished arriving, and whether the server closed it. */
interface Trickled {
  status: number;
  connectionHeader: string | undefined;
  body: unknown;
  /** Bytes of the declared body the client had sent when the server closed the connection (or the client gave up). */
  bodyBytesSent: number;
  declaredBytes: number;
  /** False when the connection was still open `keptOpenMs` after the answer, and the client closed it. */
  closedByServer: boolean;
  /** The server reset the connection before its answer could be read (`resetsUnreadConnection`). */
  resetBeforeAnswer: boolean;
}

/** How long after its 408 a connection a server keeps open (`slowBodyConnectionKeptOpen`) is watched: five times the suite's read deadline. */
const SLOW_BODY_KEPT_OPEN_MS = 3_000;

/** An HTTP/1.1 body as sent, chunked or not. */
function decodeBody(headerLines: readonly string[], raw: string): string {
  if (!headerLines.some((line) => /^transfer-encoding:\s*chunked/i.test(line))) return raw;
  let text = '';
  for (let rest = raw; ; ) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!(size > 0)) return text;
    text += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

/**
 * Sends the headers of a POST and then one byte of its body every `dripMs`,
 * as a slow-loris client does, and resolves once the server closes the
 * connection; or, with `keptOpenMs`, once the connection is still open that
 * long after the answer began, closing it then.
 */
function trickle(url: string, dripMs: number, keptOpenMs?: number): Promise<Trickled> {
  const target = new URL(url);
  const declaredBytes = 4_000;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname);
    let received = '';
    let bodyBytesSent = 0;
    let drip: NodeJS.Timeout | undefined;
    let watch: NodeJS.Timeout | undefined;
    let closedByServer = true;
    let resetBeforeAnswer = false;
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      socket.write(
        `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\nContent-Length: ${declaredBytes}\r\n\r\n`,
      );
      // Each byte is written after the loop's I/O phase (setImmediate), not from the timer phase before it: a server
      // that resets the connection after its answer (workerd does) fails the write, and Node destroys the socket on
      // that error; on a busy machine, writing first lost an answer already waiting to be read.
      drip = setInterval(() => {
        setImmediate(() => {
          if (bodyBytesSent < declaredBytes && socket.writable) socket.write(bodyBytesSent++ === 0 ? '{' : ' ');
        });
      }, dripMs);
    });
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (keptOpenMs === undefined || watch !== undefined) return;
      watch = setTimeout(() => {
        closedByServer = false;
        socket.destroy();
      }, keptOpenMs);
    });
    // A server closing a connection with the body's bytes unread resets it (workerd does), and a write after its close
    // fails (EPIPE): once the answer is in, either is its close.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
      else if (!received.includes('\r\n\r\n')) resetBeforeAnswer = true;
    });
    socket.on('close', () => {
      clearInterval(drip);
      clearTimeout(watch);
      const headEnd = received.indexOf('\r\n\r\n');
      const [statusLine = '', ...headerLines] = received.slice(0, headEnd).split('\r\n');
      const text = decodeBody(headerLines, received.slice(headEnd + 4));
      const connectionHeader = headerLines.find((line) => /^connection:/i.test(line))?.split(':')[1]?.trim().toLowerCase();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), connectionHeader, body, bodyBytesSent, declaredBytes, closedByServer, resetBeforeAnswer });
    });
  });
}

/** A JSON text `depth` arrays deep around `core`. */
function nested(depth: number, core = '0'): string {
  return `${'['.repeat(depth)}${core}${']'.repeat(depth)}`;
}

/** Read deadline, size and nesting bounds of the bodies the routes read, on every mount. */
export function bodyCases(ctx: () => ConformanceContext, target: ConformanceTarget): void {
  const { seen } = recorder(ctx);

  const skipped = target.slowBodyCaseSkipped;
  const keptOpen = target.slowBodyConnectionKeptOpen;
  const closing = keptOpen === undefined ? 'their connections closed' : `their connections kept open by the server [a known limit: ${keptOpen}]`;
  it.skipIf(target.platformReadsBodies === true || skipped !== undefined)(
    `bodies trickling in (a slow-loris client) are answered 408 in the JSON error shape and ${closing}${skipped === undefined ? '' : ` [skipped: ${skipped}]`}`,
    async () => {
      const { app } = ctx();
      const paths = ['/wallet/pay', '/checkout', '/webhook'];
      const keptOpenMs = keptOpen === undefined ? undefined : SLOW_BODY_KEPT_OPEN_MS;
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => trickle(`${app.url}${paths[i % paths.length]}`, 100, keptOpenMs)));
      const resets = target.resetsUnreadConnection === undefined ? [] : answers.filter((answer) => answer.resetBeforeAnswer);
      // Every route still shows its 408: a reset stands in for an answer on some connections, never on all of a route's.
      for (const [index, path] of paths.entries()) {
        expect(answers.some((answer, i) => i % paths.length === index && !resets.includes(answer)), path).toBe(true);
      }
      for (const answer of answers) {
        expect(answer.bodyBytesSent).toBeLessThan(answer.declaredBytes);
        if (resets.includes(answer)) continue;
        expect(answer).toMatchObject({
          status: 408,
          connectionHeader: target.platformDropsConnectionHeader === true ? undefined : 'close',
          body: { error: { code: 'BODY_READ_TIMEOUT', message: 'The request body did not arrive in time.' } },
          // Either the server ended the connection while the client was still sending, or it is the runtime's known limit.
          closedByServer: keptOpen === undefined,
        });
      }
    },
  );

  it('a 49,000-level JSON body to the browser routes is refused 413 for its size, before it is parsed', async () => {
    const body = nested(49_000);
    expect(Buffer.byteLength(body)).toBeGreaterThan(BODY_LIMIT_BYTES);
    for (const path of ['/wallet/pay', '/checkout']) {
      const res = seen(await postUnread(`${ctx().app.url}${path}`, body, { 'content-type': 'application/json' }));
      expect(res.status).toBe(413);
      expect(res.json).toEqual({ error: { code: 'BODY_TOO_LARGE', message: 'The request body is too large.' } });
    }
  });

  it('a body within the size limit but nested deeper than 32 levels is refused 400 by the nesting check, not by the parser', async () => {
    const orderId = freshOrderId();
    const bodies = [nested(1_500), `{"orderId":"${orderId}","extra":${nested(40)}}`];
    for (const path of ['/wallet/pay', '/checkout']) {
      for (const body of bodies) {
        expect(Buffer.byteLength(body)).toBeLessThan(BODY_LIMIT_BYTES);
        const res = seen(await postRaw(`${ctx().app.url}${path}`, body, { 'content-type': 'application/json' }));
        expect(res.status).toBe(400);
        expect(res.json).toEqual({ error: { code: 'INVALID_BODY', message: 'The request body nests deeper than 32 levels.' } });
      }
    }
    // Brackets inside a string are not nesting: this order id passes the check and is looked up.
    const inString = seen(await postRaw(`${ctx().app.url}/checkout`, JSON.stringify({ orderId: nested(50) }), { 'content-type': 'application/json' }));
    expect(inString.json).toEqual({ error: { code: 'ORDER_NOT_FOUND', message: expect.any(String) } });
  });
}
