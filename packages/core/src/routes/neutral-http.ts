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
 * `new URL(target, base).searchParams` reads it, without parsing a URL on
 * every request (bench: routes-fastify): most requests have no query.
 */
export function queryOfTarget(target: string): Record<string, string | string[]> {
  const start = target.indexOf('?');
  if (start === -1) return Object.create(null) as Record<string, string | string[]>;
  const fragment = target.indexOf('#', start);
  return queryOf(new URLSearchParams(target.slice(start + 1, fragment === -1 ? undefined : fragment)));
}
