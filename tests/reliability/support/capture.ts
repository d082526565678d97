import type { Logger } from '@paymount/core';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  msg: string;
  /** The whole entry as one serialised line: what a log shipper would store. */
  line: string;
}

/**
 * A pino-compatible logger that keeps every entry at every level, debug
 * included: the most verbose setting a merchant can choose. Errors are
 * serialised with their message, cause chain and stack.
 */
export function captureLogger(entries: LogEntry[] = []): { logger: Logger; entries: LogEntry[] } {
  const write =
    (level: LogEntry['level']) =>
    (objOrMsg: object | string, msg?: string): void => {
      const fields = typeof objOrMsg === 'string' ? {} : (objOrMsg as Record<string, unknown>);
      const text = typeof objOrMsg === 'string' ? objOrMsg : (msg ?? '');
      entries.push({ level, fields, msg: text, line: `${level} ${text} ${serialise(fields)}` });
    };
  return { logger: { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }, entries };
}

/** JSON with Error objects spelled out (message, stack, cause), so nothing an error carries escapes the scan. */
export function serialise(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner instanceof Error
      ? { name: inner.name, message: inner.message, stack: inner.stack, cause: inner.cause, ...(inner as object) }
      : inner,
  );
}
