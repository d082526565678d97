// A Node `IncomingMessage` to a neutral request, and the answer back to `ServerResponse`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyAlreadyConsumed, bodyLeftByParser, type BodyParserLeftovers, bodyTooLarge, type NeutralRequest, type NeutralResponse, queryOfTarget, rawPathOf } from '../../http/neutral-http';

// For the Node middleware, which lives above the platform: Node's types reach it only through this bridge.
export type { IncomingMessage, ServerResponse };

/**
 * Reads a Node request body up to `limitBytes`. A declared Content-Length over
 * the limit is refused before reading; a stream that grows past it is drained
 * without being kept, so memory stays bounded and the 413 can still be sent.
 */
export function readNodeBody(req: IncomingMessage, limitBytes: number): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) return Promise.reject(bodyTooLarge());
  if (req.readableEnded) return Promise.reject(bodyAlreadyConsumed());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const onData = (chunk: Buffer | string) => {
      if (tooLarge) return;
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.byteLength;
      if (size > limitBytes) {
        tooLarge = true;
        chunks.length = 0;
        reject(bodyTooLarge());
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = () => {
      cleanup();
      if (!tooLarge) resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

export interface ToNeutralRequestOptions {
  /** The path relative to where the routes are mounted (see `pathUnderMount`). Default: the URL's path as sent, undecoded. */
  path?: string;
  /** What a body parser mounted before paymount left on the request: used only when it consumed the stream. */
  bodyParser?: BodyParserLeftovers;
  /**
   * The error a route reading the body gets when a parser consumed the stream
   * and left nothing usable. Default `BODY_ALREADY_CONSUMED`: mount the routes
   * before any body parser.
   */
  consumedBodyError?: () => Error;
  /** How to fix a consumed body in the framework's words (see NeutralRequest.consumedBodyFix). */
  consumedBodyFix?: string;
  /** Handed to the merchant's hooks (resolveOrder, event handlers). Default: the request itself. */
  context?: unknown;
  limitBytes: number;
}

/** The neutral request for a Node IncomingMessage (what Express, Koa and Nest requests all are underneath). */
export function toNeutralRequest(req: IncomingMessage, options: ToNeutralRequestOptions): NeutralRequest {
  const target = req.url ?? '/';
  let body: Promise<Uint8Array> | undefined;
  const { consumedBodyFix } = options;
  const consumedBodyError = options.consumedBodyError ?? (consumedBodyFix === undefined ? undefined : () => bodyAlreadyConsumed(consumedBodyFix));
  const request: NeutralRequest = {
    method: (req.method ?? 'GET').toUpperCase(),
    path: options.path ?? rawPathOf(target),
    headers: req.headers,
    query: queryOfTarget(target),
    readBody: () =>
      (body ??= req.readableEnded && consumedBodyError ? Promise.reject(consumedBodyError()) : readNodeBody(req, options.limitBytes)),
    context: options.context ?? req,
    ...(consumedBodyFix === undefined ? {} : { consumedBodyFix }),
  };
  const parsedBody = options.bodyParser && bodyLeftByParser(req, options.bodyParser);
  if (parsedBody !== undefined) request.parsedBody = parsedBody;
  return request;
}

/** Writes a neutral response to a Node ServerResponse and ends it. */
export function writeNeutralResponse(res: ServerResponse, response: NeutralResponse): void {
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.setHeader('content-length', Buffer.byteLength(response.body));
  res.end(response.body);
}

/** What `serveNodeRequest` needs of the payment routes (a `PaymentRoutes` is one). */
export interface NodeServedRoutes {
  handle(request: NeutralRequest): Promise<NeutralResponse | undefined>;
  /** The limit a request body is read with. */
  readonly readLimitBytes: number;
}

/** `toNeutralRequest`'s options for `serveNodeRequest`: the path required, the read limit the routes'. */
export type ServeNodeRequestOptions = Omit<ToNeutralRequestOptions, 'limitBytes'> & { path: string };

/**
 * Serves one Node request under a mount: resolves `true` once the routes
 * answered it, `false` when it is none of theirs (the mount passes it on).
 * `createNodeMiddleware` and the Express adapter are this, with their own
 * mount path and what their body parsers leave.
 */
export async function serveNodeRequest(routes: NodeServedRoutes, req: IncomingMessage, res: ServerResponse, options: ServeNodeRequestOptions): Promise<boolean> {
  const response = await routes.handle(toNeutralRequest(req, { ...options, limitBytes: routes.readLimitBytes }));
  if (response === undefined) return false;
  // Inside the promise, so a response Node refuses to write rejects it (the mount's next(error)) instead of going unhandled.
  writeNeutralResponse(res, response);
  return true;
}
