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
