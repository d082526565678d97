import * as z from 'zod/mini';
import { baseUrlSchema } from './base-url';

/** What `createFetchTransport` sends through: the global `fetch`'s signature, or one that is a subset of it. */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>;

export interface FetchTransportOptions {
  /** The service's base URL, as the client's `baseUrl`: the transport sends each path under it. */
  baseUrl: string;
  /**
   * Sends every attempt instead of the global `fetch` (a Cloudflare service
   * binding's, an instrumented one). Called as a plain function: bind it first
   * (`(url, init) => env.PAYMENTS.fetch(url, init)`).
   */
  fetch?: FetchFunction | undefined;
}

export const fetchTransportOptionsSchema = z.strictObject({
  baseUrl: baseUrlSchema,
  fetch: z.optional(
    z.custom<FetchFunction>((value) => typeof value === 'function', 'must be a function taking (url, init) and resolving to a Response, as fetch does'),
  ),
});
