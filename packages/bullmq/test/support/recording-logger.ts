import type { Logger } from '@paymount/core';

export interface LogEntry {
  level: keyof Logger;
  fields: Record<string, unknown>;
  message: string;
}

/** A pino-compatible logger that keeps every line, for reading what a merchant's log would show. */
export function recordingLogger(): Logger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at =
    (level: keyof Logger) =>
    (fieldsOrMessage: object | string, message?: string): void => {
      if (typeof fieldsOrMessage === 'string') entries.push({ level, fields: {}, message: fieldsOrMessage });
      else entries.push({ level, fields: fieldsOrMessage as Record<string, unknown>, message: message ?? '' });
    };
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
