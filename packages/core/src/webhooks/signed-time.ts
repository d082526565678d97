import { WebhookVerificationError } from '../errors';

/** The body field the sandbox (and the service, as far as it is known) signs its notification time in. */
export const DEFAULT_SIGNED_TIME_FIELD = 'notifyTime';

const EPOCH_MS = /^[0-9]{13}$/;
// Date and time with a zone (Z, ±hh, ±hhmm or ±hh:mm), e.g. 2025-12-24T10:00:00+08:00. A time without
// a zone is refused: read as this server's local time, it would shift the window by the zone difference.
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?)$/i;

function isoTime(text: string): number | undefined {
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return undefined;
  const number = (group: number) => Number(match[group] ?? 0);
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map(number) as [number, number, number, number, number, number];
  const [offsetHours, offsetMinutes] = [number(10), number(11)];
  const milliseconds = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, milliseconds);
  // Date.UTC rolls 2025-02-30 over into March: a date that does not exist is not a time.
  const date = new Date(local);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  const offsetMs = (offsetHours * 60 + offsetMinutes) * 60_000;
  return match[9] === '-' ? local + offsetMs : local - offsetMs;
}

/**
 * Epoch milliseconds of a signed time given as ISO 8601 with a zone, or as
 * 13-digit epoch milliseconds (a number or its digits); undefined for
 * anything else.
 */
export function parseSignedTime(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && EPOCH_MS.test(String(value)) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  return EPOCH_MS.test(value) ? Number(value) : isoTime(value);
}

export interface SignedTimeRule {
  /** The top-level body field holding the time. */
  field: string;
  /** Refuse a body without it, instead of accepting it unchecked. */
  required: boolean;
  now: number;
  toleranceMs: number;
}

/**
 * Checks the time the service signed into the body against the window.
 * `X-Timestamp` is not signed, so a replay carries a fresh one; this time
 * cannot be changed without breaking the signature, so a captured delivery
 * stops being accepted once it is older than the window. Returns the time,
 * or undefined when the body has none and none is required.
 */
export function checkSignedTime(payload: Readonly<Record<string, unknown>>, rule: SignedTimeRule): number | undefined {
  const value = Object.hasOwn(payload, rule.field) ? payload[rule.field] : undefined;
  if (value === undefined || value === null) {
    if (!rule.required) return undefined;
    throw new WebhookVerificationError(
      'missing_signed_time',
      `The webhook body has no ${rule.field} field, and a signed time is required: set webhook.signedTimeField to the field the service signs its time in.`,
    );
  }
  const time = parseSignedTime(value);
  if (time === undefined) {
    throw new WebhookVerificationError(
      'bad_signed_time',
      `The webhook body's ${rule.field} is neither ISO 8601 with a time zone nor epoch milliseconds (13 digits).`,
    );
  }
  if (rule.now - time > rule.toleranceMs) {
    throw new WebhookVerificationError(
      'stale_event',
      `The event's signed ${rule.field} is older than the allowed ${rule.toleranceMs} ms: a replayed delivery (its X-Timestamp is not signed and does not count) or one delivered too late.`,
    );
  }
  if (time - rule.now > rule.toleranceMs) {
    throw new WebhookVerificationError(
      'future_event',
      `The event's signed ${rule.field} is more than ${rule.toleranceMs} ms in the future: check this server's clock.`,
    );
  }
  return time;
}
