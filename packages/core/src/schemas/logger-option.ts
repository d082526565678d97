import * as z from 'zod/mini';
import type { Logger, LoggerOption } from '../logger';

const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** The one check of "is this a logger" for every `logger` option: the four methods paymount calls. */
export function isLogger(value: unknown): value is Logger {
  return (
    typeof value === 'object' &&
    value !== null &&
    LOG_LEVELS.every((level) => typeof (value as Record<string, unknown>)[level] === 'function')
  );
}

/** A `logger` option: a pino-compatible logger, or `false` to log nothing. */
export const loggerOptionSchema = z.custom<LoggerOption>(
  (value) => value === false || isLogger(value),
  'must be a pino-compatible logger with debug, info, warn and error methods, or false to log nothing',
);
