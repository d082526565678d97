import type { HonoRequest } from 'hono';

/**
 * What Hono kept of a body a middleware already read through `c.req`: the
 * exact bytes (`c.req.arrayBuffer()`, `parseBody()`, the form validator) or
 * their text (`c.req.text()`, and `c.req.json()` and the JSON validator on
 * Hono versions that cache the text). Nothing when the body is unread, or was
 * read past Hono (`c.req.raw.json()`) or only kept parsed: a signature covers
 * the bytes, so a parsed body is never re-serialised to stand in for them.
 */
export async function keptByHono(req: HonoRequest): Promise<Uint8Array | string | undefined> {
  if (!req.raw.bodyUsed) return undefined;
  // Typed as values, held as promises; one that failed (the client went away) leaves nothing.
  const { arrayBuffer, text, blob } = req.bodyCache;
  try {
    if (arrayBuffer !== undefined) return new Uint8Array(await Promise.resolve(arrayBuffer));
    if (text !== undefined) return await Promise.resolve(text);
    if (blob !== undefined) return new Uint8Array(await (await Promise.resolve(blob)).arrayBuffer());
  } catch {
    return undefined;
  }
  return undefined;
}
