import { generateClientRequestId } from './ids';

export const CLIENT_REQUEST_ID_HEADER = 'X-Client-Request-Id';

/**
 * The four headers the spec's Authentication section requires, in its exact
 * form. Built per attempt: a repeated X-Client-Request-Id within 10 minutes is
 * a duplicate, and the timestamp must be fresh (±10 minutes).
 */
export function buildAuthHeaders(apiKey: string, nowMs: number): Record<string, string> {
  return {
    Authorization: `Bearer ${apiKey}`,
    'Content-Type': 'application/json',
    [CLIENT_REQUEST_ID_HEADER]: generateClientRequestId(),
    'X-Timestamp': formatTimestamp(nowMs),
  };
}

/** Unix time in milliseconds, 13 digits (a 10-digit seconds value is invalid). */
export function formatTimestamp(nowMs: number): string {
  const text = String(Math.trunc(nowMs));
  if (!/^[0-9]{13}$/.test(text)) {
    throw new RangeError('the client clock must return Unix time in milliseconds (13 digits)');
  }
  return text;
}
