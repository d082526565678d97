// The neutral request and answer, `PaymentRouteError`, the route paths and marker, mount paths; reading a
// body within its size, depth and time limits, a body a parser took, the form origin check.
import { utf8Bytes, utf8Text } from '../shared/bytes';
import { PaymentError, PaymentErrorCode } from '../shared/errors';
import { isPlainObject } from '../shared/validation';

/**
 * The framework-neutral shape every adapter converts to and from. Route logic
 * lives behind it in @paymount/core, so Express, Koa and NestJS behave alike.
 */
export type NeutralHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface NeutralRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Path relative to where the routes are mounted, starting with '/', without the query string. */
  path: string;
  /** Header names in lower case, as Node's IncomingMessage gives them. */
  headers: NeutralHeaders;
  query: Readonly<Record<string, string | string[] | undefined>>;
  /**
   * Reads the raw body bytes. Called only by routes that take a body, and only
   * when no parser ran before paymount. Rejects with a PaymentRouteError (413)
   * past the size limit. `signal` aborts when the routes stop waiting for the
   * body (its read deadline): a reader of a stream cancels it there, so the
   * runtime stops taking the body in for a request already answered.
   */
  readBody?: (signal?: AbortSignal) => Promise<Uint8Array>;
  /**
   * What a body parser mounted before paymount left on the request (e.g. by
   * `express.json()`), when it consumed the stream. JSON and form routes use it;
   * the webhook route refuses it, since a signature is over raw bytes.
   */
  parsedBody?: unknown;
  /** The framework's own request object, handed to the merchant's hooks as context. */
  context?: unknown;
  /**
   * How to fix a body a parser before the routes consumed, in the framework's
   * words: logged with BODY_ALREADY_CONSUMED and WEBHOOK_BODY_ALREADY_PARSED.
   * Code in it is between backticks and compiles as written in a strict app.
   */
  consumedBodyFix?: string;
}

export interface NeutralResponse {
  status: number;
  headers: Record<string, string>;
  /**
   * Serialised body, or '' for none. The answer to a HEAD request carries the
   * GET's body so its length is known; a writer sends the headers only (Node's
   * http and Koa drop a HEAD body themselves).
   */
  body: string;
}

/**
 * A query as the neutral request carries it: a repeated key gives an
 * array, in order. Built without a prototype, so `__proto__` or `constructor`
 * in a query string are keys like any other, never Object.prototype's members.
 */
export function queryOf(params: URLSearchParams): Record<string, string | string[]> {
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of params) {
    const previous = query[key];
    query[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return query;
}

/**
 * The query of a request target (`/checkout?x=1`, or absolute-form), as
 * `new URL(target, base).searchParams` reads it, from the text after `?`:
 * a target whose URL does not parse (an absolute form with a bad host) still
 * has its query read, where `new URL` would throw.
 */
export function queryOfTarget(target: string): Record<string, string | string[]> {
  const start = target.indexOf('?');
  if (start === -1) return Object.create(null) as Record<string, string | string[]>;
  const fragment = target.indexOf('#', start);
  return queryOf(new URLSearchParams(target.slice(start + 1, fragment === -1 ? undefined : fragment)));
}

export interface PaymentRouteErrorOptions {
  /** Seconds after which the same request may succeed (sent as `Retry-After`), when it is a matter of time. */
  retryAfterSeconds?: number;
  /** What went wrong underneath: logged, never answered. */
  cause?: unknown;
  /** How the merchant fixes it, when paymount knows: logged with the failure, never answered. */
  fix?: string;
  /** More fields for the log line of the failure, never answered. */
  details?: Readonly<Record<string, unknown>>;
}

/** A request to a paymount route that cannot be served as sent; `httpStatus` is what the route answers. */
export class PaymentRouteError extends PaymentError {
  override name = 'PaymentRouteError';
  declare readonly httpStatus: number;
  /** Seconds after which the same request may succeed (sent as `Retry-After`), when it is a matter of time. */
  readonly retryAfterSeconds: number | undefined;
  /** How the merchant fixes it, when paymount knows; logged, never answered. */
  readonly fix: string | undefined;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(httpStatus: number, code: PaymentErrorCode, message: string, options: PaymentRouteErrorOptions = {}) {
    super(message, { code, httpStatus, cause: options.cause });
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.fix = options.fix;
    this.details = options.details;
  }
}

export const BODY_TOO_LARGE_MESSAGE = 'The request body is too large.';

/**
 * One wording whichever layer notices (the adapter's reader, a route, the
 * webhook verifier), so answers stay identical; `fix` is logged, never answered.
 */
export function bodyTooLarge(fix?: string): PaymentRouteError {
  return new PaymentRouteError(413, PaymentErrorCode.BODY_TOO_LARGE, BODY_TOO_LARGE_MESSAGE, fix === undefined ? {} : { fix });
}

/**
 * What a route did, told beside its response so that telemetry never reads
 * the serialised body back.
 */
export interface RouteOutcome {
  /** The error code answered, for a 4xx or 5xx. */
  errorCode?: PaymentErrorCode;
  /** The webhook route answered a delivery of an event already handled: no handler ran. */
  duplicate?: true;
  /** The webhook route handed the delivery's event to queued processing: its handlers run on a worker. */
  queued?: true;
}

export interface RouteAnswer {
  response: NeutralResponse;
  outcome: RouteOutcome;
}

/** A route's response with nothing more to tell: a success. */
export function answered(response: NeutralResponse): RouteAnswer {
  return { response, outcome: {} };
}

/**
 * The header every answer of a paymount route carries, naming the route
 * (`webhook`, `checkout`, ...). A webhook sender that gets a refusal without it
 * knows the app refused before paymount's route ran (a global auth guard, a
 * body parser, a route mounted elsewhere), which the app's own log never shows.
 */
export const ROUTE_MARKER_HEADER = 'x-paymount-route';

/**
 * `response` given the marker of the route at `path` (relative to the mount
 * point, e.g. `/webhook`). Set in place rather than on copies of the response
 * and its headers: every route builds both afresh for each request.
 */
export function markedByRoute(response: NeutralResponse, path: string): NeutralResponse {
  response.headers[ROUTE_MARKER_HEADER] = path.slice(1);
  return response;
}

/** The webhook route's path, which telemetry also names its delivery metrics by. */
export const WEBHOOK_ROUTE = '/webhook';

/**
 * The payment routes' paths below the mount point, known before any options
 * are: a router that registers each path up front (a Hono app whose options
 * arrive with its first request) registers exactly these. `createPaymentRoutes`
 * serves these and no other.
 */
export const PAYMENT_ROUTE_PATHS = ['/checkout', '/wallet/config', '/wallet/pay', '/status', WEBHOOK_ROUTE] as const;

export type PaymentRoutePath = (typeof PAYMENT_ROUTE_PATHS)[number];

/** A mount path in one spelling: no trailing slash, '' for the root. */
export function normalizeMountPath(mountPath: string | undefined): string {
  return (mountPath ?? '').replace(/\/+$/, '');
}

/**
 * What makes a path mean one thing to one layer of a stack and another to the
 * next: a `.` or `..` segment, an empty segment, a backslash, any
 * percent-escape. URL parsers resolve the first ones, some routers decode the
 * escapes (`%2e`, `%2f`, `%63`) before matching, while a merchant's
 * path-scoped guard may match the path as sent: no payment route is spelled
 * with any of them, so refusing them never refuses a route.
 */
const AMBIGUOUS_PATH = /\/\.{1,2}(?:\/|$)|\/\/|\\|%/;

/** The path of a request target as it arrived, neither decoded nor resolved: up to its query, host dropped from an absolute URL. */
export function rawPathOf(target: string): string {
  const path = target.split('?', 1)[0] ?? '';
  const authority = /^[a-z][a-z\d+.-]*:\/\/[^/]*/i.exec(path);
  return authority ? path.slice(authority[0].length) || '/' : path;
}

/**
 * The request path relative to `mountPath`, or undefined when the request is
 * outside it or its path below the mount is not spelled plainly (see
 * AMBIGUOUS_PATH). `rawPath` must be the path as the framework matched it,
 * before any decoding or resolving (`rawPathOf(req.url)`): then the route
 * served is the one every middleware before it saw.
 */
export function pathUnderMount(rawPath: string, mountPath: string): string | undefined {
  const below = belowMount(rawPath, mountPath);
  return below !== undefined && below.startsWith('/') && !AMBIGUOUS_PATH.test(below) ? below : undefined;
}

function belowMount(path: string, mountPath: string): string | undefined {
  if (mountPath === '') return path;
  if (path === mountPath) return '/';
  return path.startsWith(`${mountPath}/`) ? path.slice(mountPath.length) : undefined;
}

export function isPaymentRoutes<H extends { handle: unknown }>(value: H | object): value is H {
  return typeof (value as Partial<H>).handle === 'function';
}

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
