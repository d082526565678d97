// Reading a body within its size, depth and time limits; a body a parser took; the form origin
// check.
import { utf8Bytes, utf8Text } from '../shared/bytes';
import { PaymentErrorCode } from '../shared/errors';
import { isPlainObject } from '../shared/validation';
import { bodyTooLarge, type NeutralHeaders, type NeutralRequest, PaymentRouteError } from './neutral-http';

/**
 * The deepest nesting of arrays and objects a browser route's JSON body may
 * have. Its bodies are `{ orderId }` and `{ orderId, token }` (the token is a
 * string): far below this, while a body of thousands of levels costs the
 * parser and the garbage collector time on the event loop every other request
 * shares.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/** Whether `text` nests arrays and objects deeper than `max`: one pass over the characters, strings skipped, nothing built. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (OPENERS.has(c)) {
      if (++depth > max) return true;
    } else if (CLOSERS.has(c)) {
      depth--;
    }
  }
  return false;
}

/**
 * The answer when a middleware before the routes read the body and left
 * nothing they can use, one wording whichever adapter notices; `fix` says how
 * in the merchant's framework, logged, never answered.
 */
export function bodyAlreadyConsumed(fix?: string): PaymentRouteError {
  return new PaymentRouteError(
    500,
    PaymentErrorCode.BODY_ALREADY_CONSUMED,
    'The request body was already read by another middleware. Mount the payment routes before any body parser.',
    fix === undefined ? {} : { fix },
  );
}

/** What a body parser mounted before paymount may have left on the request. */
export interface BodyParserLeftovers {
  /**
   * The exact bytes it kept, as `express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })`,
   * @koa/bodyparser and Nest's `rawBody: true` keep them. Only bytes or text count.
   */
  rawBody?: unknown;
  /** What it parsed. */
  body?: unknown;
}

/**
 * What a parser that consumed the stream left of the body: the bytes it kept
 * win over what it parsed, so the webhook can still check its signature.
 * Undefined while the stream is unread, whatever the request carries: a parser
 * may set `body` without reading (Express 4's json() sets `req.body = {}`).
 */
export function bodyLeftByParser(req: { readonly readableEnded: boolean }, leftovers: BodyParserLeftovers): unknown {
  if (!req.readableEnded) return undefined;
  // Read as unknown: another package's augmentation of IncomingMessage (e.g. rawBody: string) must not narrow the check away.
  const rawBody: unknown = leftovers.rawBody;
  return rawBody instanceof Uint8Array || typeof rawBody === 'string' ? rawBody : leftovers.body;
}

function bodyReadTimeout(ms: number): PaymentRouteError {
  return new PaymentRouteError(408, PaymentErrorCode.BODY_READ_TIMEOUT, 'The request body did not arrive in time.', {
    fix:
      `a body still arriving ${ms} ms after the route started reading it is refused, so slow senders cannot hold connections open; ` +
      'raise bodyReadTimeoutMs only if genuine clients (e.g. behind a proxy that streams slowly) need longer',
  });
}

/**
 * `req` as the routes read it: its body must arrive in full within `ms` of
 * the route asking for it, or the read fails with 408 (whose answer asks to
 * close the connection) and the reader is told to stop (a fetch body's stream
 * is cancelled). Every adapter hands its body to the routes through
 * `readBody`, so this one wrapper bounds them all.
 */
export function withBodyDeadline(req: NeutralRequest, ms: number): NeutralRequest {
  const { readBody } = req;
  if (readBody === undefined) return req;
  return {
    ...req,
    readBody: () =>
      new Promise<Uint8Array>((resolve, reject) => {
        const stop = new AbortController();
        const timer = setTimeout(() => {
          stop.abort();
          reject(bodyReadTimeout(ms));
        }, ms);
        readBody(stop.signal).then(resolve, reject).finally(() => clearTimeout(timer));
      }),
  };
}

export type BodyKind = 'json' | 'form';

export interface RequestBody {
  kind: BodyKind;
  fields: Record<string, unknown>;
}

const MEDIA_TYPES: Readonly<Record<BodyKind, string>> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
};

function kindOf(contentType: string | undefined): BodyKind | undefined {
  const mediaType = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  if (!mediaType) return undefined;
  if (mediaType === MEDIA_TYPES.json || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType)) return 'json';
  if (mediaType === MEDIA_TYPES.form) return 'form';
  return undefined;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parseText(text: string, kind: BodyKind): Record<string, unknown> {
  if (kind === 'form') {
    const fields: Record<string, unknown> = {};
    // A repeated field keeps its first value, so every field stays a single string.
    for (const [key, value] of new URLSearchParams(text)) if (!(key in fields)) fields[key] = value;
    return fields;
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new PaymentRouteError(400, PaymentErrorCode.INVALID_BODY, `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new PaymentRouteError(400, PaymentErrorCode.INVALID_JSON, 'The request body is not valid JSON.');
  }
  if (!isPlainObject(parsed)) throw new PaymentRouteError(400, PaymentErrorCode.INVALID_BODY, 'The request body must be a JSON object.');
  return parsed;
}

/** What the merchant reads in the log when a browser route refuses a body for its size. */
function limitFix(limitBytes: number): string {
  return `this route takes bodies of at most ${limitBytes} bytes (bodyLimitBytes): raise it if your pages send more than { orderId, token }`;
}

/**
 * Reads a route's body as one of the accepted kinds. The content type is
 * checked before a byte is read (415), the size before (a declared
 * Content-Length) and while reading (413), JSON nesting before parsing (400).
 * A body a parser already produced is used as is, so mounting paymount after
 * `express.json()` keeps working for these routes.
 */
export async function readRequestBody(
  req: NeutralRequest,
  options: { accept: readonly BodyKind[]; limitBytes: number },
): Promise<RequestBody> {
  const kind = kindOf(firstHeader(req.headers['content-type']));
  if (kind === undefined || !options.accept.includes(kind)) {
    const accepted = options.accept.map((k) => MEDIA_TYPES[k]).join(' or ');
    throw new PaymentRouteError(415, PaymentErrorCode.UNSUPPORTED_MEDIA_TYPE, `The request Content-Type must be ${accepted}.`);
  }
  const parsed = req.parsedBody;
  if (parsed !== undefined && !(parsed instanceof Uint8Array) && typeof parsed !== 'string') {
    if (!isPlainObject(parsed)) throw new PaymentRouteError(400, PaymentErrorCode.INVALID_BODY, 'The request body must be an object.');
    return { kind, fields: parsed };
  }
  // The reader may have been given a larger limit (the webhook's); each route keeps its own, before reading when it can.
  if (Number(firstHeader(req.headers['content-length'])) > options.limitBytes) throw bodyTooLarge(limitFix(options.limitBytes));
  const bytes = typeof parsed === 'string' ? utf8Bytes(parsed) : (parsed ?? (await req.readBody?.()) ?? new Uint8Array());
  if (bytes.byteLength > options.limitBytes) throw bodyTooLarge(limitFix(options.limitBytes));
  return { kind, fields: parseText(utf8Text(bytes), kind) };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Whether `origin` is the request's own: its host is the Host (or, behind a proxy, X-Forwarded-Host) the browser sent. */
export function isOwnOrigin(origin: string, headers: NeutralHeaders): boolean {
  const host = URL.parse(origin)?.host;
  if (!host) return false;
  const forwarded = single(headers['x-forwarded-host'])?.split(',', 1)[0]?.trim();
  return [single(headers.host), forwarded].some((value) => value?.toLowerCase() === host);
}

/**
 * The CSRF defence of the checkout form: a form post must come from the app's
 * own origin or from one of `allowedOrigins`. A JSON body needs no check: a page
 * on another site cannot send one without a CORS preflight, which the routes
 * never grant.
 *
 * `Sec-Fetch-Site`, which current browsers send and no page can set, decides
 * when present (`same-origin`, or `none` for a user's own navigation). Without
 * it, `Origin` must be the request's own host. A request with neither header
 * is let through: it comes from no browser a cross-site page can drive today
 * (curl, a server, a browser older than 2020 that sends no Origin on POST).
 */
export function checkFormOrigin(req: NeutralRequest, kind: BodyKind, allowedOrigins: ReadonlySet<string>): void {
  if (kind !== 'form') return;
  const origin = single(req.headers.origin);
  const site = single(req.headers['sec-fetch-site'])?.toLowerCase();
  if (origin !== undefined && allowedOrigins.has(origin)) return;
  const sameOrigin = site !== undefined ? site === 'same-origin' || site === 'none' : origin === undefined || isOwnOrigin(origin, req.headers);
  if (sameOrigin) return;
  throw new PaymentRouteError(403, PaymentErrorCode.CROSS_SITE_FORM_POST, 'A checkout form posted from another site is refused.', {
    details: { origin, secFetchSite: site },
    fix: 'if that origin is your own storefront, list it in the allowedOrigins option',
  });
}
