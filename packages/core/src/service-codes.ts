/*
 * The service's own envelope codes paymount acts on (docs/service-contract.md#response-envelope).
 * Apart from the envelope's schema: the error classes need one, and must not load zod to get it.
 */

export const SUCCESS_CODE = '0';
export const RATE_LIMIT_CODE = 'S04';

/**
 * Refusals meaning "no such transaction" (`T01`: a query, or the original of a
 * refund) and "no such checkout session" (`H01`: expire-session). The vendor
 * publishes no codes for these; these are the sandbox's.
 */
export const NOT_FOUND_CODES: ReadonlySet<string> = new Set(['T01', 'H01']);
