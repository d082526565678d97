import { getRequestURL, toWebRequest, type H3Event } from 'h3';

/** Where h3 keeps the exact bytes it read of a body (`readBody`, `readRawBody`, `readValidatedBody`, `readMultipartFormData`). */
const H3_RAW_BODY = Symbol.for('h3RawBody');

type NodeRequestWithBody = H3Event['node']['req'] & { [H3_RAW_BODY]?: Promise<Uint8Array | undefined>; __unenv__?: unknown };

/** The web `Request` of an h3 event, and the exact bytes h3 kept of a body something before the routes read. */
export interface EventRequest {
  request: Request;
  keptBody?: Uint8Array;
}

/** Logged with BODY_ALREADY_CONSUMED: how a Nitro app stops a server middleware from taking the bytes away. */
export const NITRO_CONSUMED_BODY_FIX =
  'a server middleware (server/middleware/) or a handler before the payment routes read the body in a way that keeps no bytes (`await readFormData(event);`, ' +
  "`event.node.req.on('data', ...)`, a Node body parser through `fromNodeMiddleware`), and the webhook signature covers the exact bytes: " +
  'have it read the body with `await readBody(event);`, `await readRawBody(event);` or `await readValidatedBody(event, ...);` (h3 keeps those bytes and paymount reads them), ' +
  "or skip the payment paths in it: `if (event.path.startsWith('/payments/')) return;`";

/**
 * What h3 kept of a body it already read: the bytes exactly as they arrived.
 * Never the `req.body` a Node body parser left: h3 would re-serialise a parsed
 * object (`JSON.stringify`), and a signature covers the bytes sent.
 */
async function keptByH3(req: NodeRequestWithBody): Promise<Uint8Array | undefined> {
  const kept = req[H3_RAW_BODY];
  if (kept === undefined) return undefined;
  try {
    return await kept;
  } catch {
    // The client went away while h3 read it: nothing was kept.
    return undefined;
  }
}

/** A request Node's HTTP server parses, its body a stream (not a web runtime's request under unenv: Bun, Deno, Workers). */
function onNodeServer(event: H3Event): boolean {
  return event.web?.request === undefined && event._requestBody === undefined && !('__unenv__' in event.node.req);
}

/**
 * The unread body of Node's request as a web stream. h3's own (`toWebRequest`)
 * keeps writing into it after the routes cancel it (at their read deadline or
 * size limit), which throws inside Node's HTTP parser and answers the client
 * a bare 400: this one stops when cancelled and lets the rest drain unread, so
 * the routes' 408 or 413 reaches the client.
 */
function nodeBodyStream(req: H3Event['node']['req']): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Uint8Array) => cancelled || controller.enqueue(chunk));
      req.on('end', () => cancelled || controller.close());
      req.on('error', (error: Error) => cancelled || controller.error(error));
    },
    cancel() {
      cancelled = true;
    },
  });
}

/**
 * The fetch `Request` the routes read, for an h3 event: h3's kept bytes beside
 * it when something before the routes read the body through h3; else, on
 * Node's server, the body's stream, or, when something took the stream past
 * h3 and kept nothing, a Request whose body is already used (the Fetch API's
 * word for it), which the routes answer with BODY_ALREADY_CONSUMED and the fix
 * in Nitro's words; on a web runtime, h3's own Request of it.
 */
export async function requestOfEvent(event: H3Event): Promise<EventRequest> {
  const req = event.node.req as NodeRequestWithBody;
  const url = getRequestURL(event);
  const head = { method: event.method, headers: event.headers };
  const keptBody = await keptByH3(req);
  if (keptBody !== undefined) return { request: new Request(url, head), keptBody };
  if (!onNodeServer(event) || event.method === 'GET' || event.method === 'HEAD') return { request: toWebRequest(event) };
  if (req.readableDidRead !== true) return { request: new Request(url, { ...head, body: nodeBodyStream(req), duplex: 'half' } as RequestInit) };
  const request = new Request(url, { ...head, body: new ReadableStream(), duplex: 'half' } as RequestInit);
  await request.body?.cancel();
  return { request };
}
