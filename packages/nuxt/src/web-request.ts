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

/**
 * A Node request whose stream something read past h3's cache: reading it
 * again would wait for an end that already came. A web runtime's request
 * (Bun, Deno, Workers, through unenv) keeps its body apart from the stream.
 */
function nodeStreamRead(event: H3Event): boolean {
  const req = event.node.req as NodeRequestWithBody;
  if (event.method === 'GET' || event.method === 'HEAD') return false;
  return event.web?.request === undefined && event._requestBody === undefined && !('__unenv__' in req) && req.readableDidRead === true;
}

/**
 * The fetch `Request` the routes read, for an h3 event: the body still unread,
 * h3's kept bytes beside it, or, when something took the stream and kept
 * nothing, a Request whose body is already used (the Fetch API's word for it),
 * which the routes answer with BODY_ALREADY_CONSUMED and the fix in Nitro's words.
 */
export async function requestOfEvent(event: H3Event): Promise<EventRequest> {
  const keptBody = await keptByH3(event.node.req as NodeRequestWithBody);
  if (keptBody !== undefined) return { request: new Request(getRequestURL(event), { method: event.method, headers: event.headers }), keptBody };
  if (!nodeStreamRead(event)) return { request: toWebRequest(event) };
  const request = new Request(getRequestURL(event), { method: event.method, headers: event.headers, body: new ReadableStream(), duplex: 'half' } as RequestInit);
  await request.body?.cancel();
  return { request };
}
