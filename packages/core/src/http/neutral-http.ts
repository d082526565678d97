// The neutral request and answer, `PaymentRouteError`, the route paths and marker, mount paths.
import { PaymentError, PaymentErrorCode } from '../shared/errors';

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
