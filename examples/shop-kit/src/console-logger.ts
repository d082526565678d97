import type { LogFn, Logger } from '@paymount/core';

/** A plain console logger for running an example by hand; a real app would pass pino. */
export function consoleLogger(): Logger {
  const line =
    (level: keyof Logger, write: (text: string) => void): LogFn =>
    (objOrMsg: object | string, msg?: string) => {
      const text = typeof objOrMsg === 'string' ? objOrMsg : `${msg ?? ''} ${JSON.stringify(objOrMsg)}`.trim();
      write(`${new Date().toISOString()} ${level.padEnd(5)} ${text}`);
    };
  return {
    debug: () => {},
    info: line('info', console.log),
    warn: line('warn', console.warn),
    error: line('error', console.error),
  };
}
