/** A checkout session is usable for 30 minutes after the successful create-session response. */
export const SESSION_LIFETIME_MS = 30 * 60 * 1000;

/** Epoch values below this are taken as seconds: as milliseconds they would fall in January 1970. */
const SECONDS_THRESHOLD = 1e11;

/**
 * The spec leaves the format of `expiresAt` open: ISO 8601 is expected, epoch
 * milliseconds or seconds are accepted, and when absent (or unreadable) the
 * lifetime is counted from when the response arrived.
 */
export function parseExpiresAt(value: unknown, receivedAt: number): Date {
  return parseServiceTime(value) ?? new Date(receivedAt + SESSION_LIFETIME_MS);
}

/** A time the service sent: ISO 8601, epoch milliseconds or epoch seconds; undefined when absent or unreadable. */
export function parseServiceTime(value: unknown): Date | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    return new Date(value < SECONDS_THRESHOLD ? value * 1000 : value);
  }
  if (typeof value === 'string' && value.trim() !== '') {
    if (/^\d+$/.test(value.trim())) return parseServiceTime(Number(value));
    const parsed = Date.parse(value);
    if (!Number.isNaN(parsed)) return new Date(parsed);
  }
  return undefined;
}

/** True once the session's checkoutUrl must no longer be used: create a new session instead. */
export function isSessionExpired(session: { expiresAt: Date }, now: number | Date = Date.now()): boolean {
  const at = typeof now === 'number' ? now : now.getTime();
  return at >= session.expiresAt.getTime();
}
