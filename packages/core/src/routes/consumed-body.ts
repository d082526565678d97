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
