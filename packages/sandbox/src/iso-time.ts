let lastMs = Number.NaN;
let lastText = '';

/**
 * `ms` as ISO 8601 text, the service's way of writing times. The last one
 * formatted is kept: at full speed many calls answer within one millisecond,
 * and a Date and its formatting cost about a µs each time.
 */
export function isoTime(ms: number): string {
  if (ms !== lastMs) {
    lastText = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastText;
}
