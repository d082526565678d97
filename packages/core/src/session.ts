/** A checkout session is usable for 30 minutes after the successful create-session response. */
export const SESSION_LIFETIME_MS = 30 * 60 * 1000;

/** Epoch values below this are taken as seconds: as milliseconds they would fall in January 1970. */
const SECONDS_THRESHOLD = 1e11;

/**
 * How far from its receipt an expiresAt is believed. Up to a year in the
 * past: a repeated transactionRequestId is answered with the session it
 * opened then, long expired, and taking that for a fresh 30 minutes would
 * hand out a dead checkoutUrl. At most a day ahead.
 */
const EARLIEST_BEFORE_RECEIPT_MS = 366 * 24 * 60 * 60_000;
const LATEST_AFTER_RECEIPT_MS = 24 * 60 * 60_000;

/**
 * The format of `expiresAt` is left open (docs/service-contract.md#session-lifetime): ISO 8601 is expected, epoch
 * milliseconds or seconds are accepted. When it is absent, unreadable or
 * implausible (more than a year before receipt, more than a day after it), the
 * lifetime is counted from when the response arrived, so a session never
 * carries an Invalid Date or a time that would keep a dead checkoutUrl in use.
 */
export function parseExpiresAt(value: unknown, receivedAt: number): Date {
  const at = serviceTimeMs(value);
  const plausible =
    at !== undefined && at >= receivedAt - EARLIEST_BEFORE_RECEIPT_MS && at <= receivedAt + LATEST_AFTER_RECEIPT_MS;
  return new Date(plausible ? at : receivedAt + SESSION_LIFETIME_MS);
}

/** A time the service sent: ISO 8601, epoch milliseconds or epoch seconds; undefined when absent or unreadable. */
export function parseServiceTime(value: unknown): Date | undefined {
  const at = serviceTimeMs(value);
  return at === undefined ? undefined : new Date(at);
}

/** parseServiceTime's time as epoch milliseconds: every answer's expiresAt is read, so no Date is made only to be read back. */
function serviceTimeMs(value: unknown): number | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    // Past JavaScript's date range (e.g. 1e20) a Date is Invalid: that is no time at all.
    const at = new Date(value < SECONDS_THRESHOLD ? value * 1000 : value).getTime();
    return Number.isNaN(at) ? undefined : at;
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return serviceTimeMs(Number(text));
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** True once the session's checkoutUrl must no longer be used: create a new session instead. */
export function isSessionExpired(session: { expiresAt: Date }, now: number | Date = Date.now()): boolean {
  const at = typeof now === 'number' ? now : now.getTime();
  return at >= session.expiresAt.getTime();
}
