import { generateClientRequestId } from './ids';
import type { HttpMethod } from './transport';

export const CLIENT_REQUEST_ID_HEADER = 'X-Client-Request-Id';

/**
 * The four headers of docs/service-contract.md#authentication, in their exact
 * form. Built per attempt: a repeated X-Client-Request-Id within 10 minutes is
 * a duplicate, and the timestamp must be fresh (±10 minutes). A GET has no
 * body, so it goes without Content-Type (as the vendor's SDK sends it).
 */
export function buildAuthHeaders(apiKey: string, nowMs: number, method: HttpMethod = 'POST'): Record<string, string> {
  if (method === 'GET') {
    return {
      Authorization: `Bearer ${apiKey}`,
      'X-Client-Request-Id': generateClientRequestId(),
      'X-Timestamp': formatTimestamp(nowMs),
    };
  }
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
