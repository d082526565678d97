import * as z from 'zod/mini';

/**
 * The service's base URL, for the client and for a transport alike. Aborts, so
 * a later rule (the client's https one) only ever reads a URL that parses.
 */
export const baseUrlSchema = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL', abort: true });
