import { format } from 'node:util';
import type { LogFn, Logger } from '@paymount/core';

/** A logger that keeps every line it is given, as the text a real logger would write. */
export class LogCapture implements Logger {
  readonly lines: string[] = [];
  readonly debug = this.record('debug');
  readonly info = this.record('info');
  readonly warn = this.record('warn');
  readonly error = this.record('error');

  private record(level: string): LogFn {
    return (objOrMsg: object | string, msg?: string) => {
      this.lines.push(`${level} ${typeof objOrMsg === 'string' ? objOrMsg : `${msg ?? ''} ${JSON.stringify(objOrMsg)}`}`);
    };
  }
}

type ConsoleMethod = 'log' | 'info' | 'warn' | 'error' | 'debug';
const METHODS: readonly ConsoleMethod[] = ['log', 'info', 'warn', 'error', 'debug'];

/**
 * Records what the process writes through the console and straight to
 * stdout/stderr, still passing it through. `stop()` restores everything.
 */
export function captureProcessOutput(): { lines: string[]; stop(): void } {
  const lines: string[] = [];
  const restore: Array<() => void> = [];
  for (const method of METHODS) {
    const original = console[method];
    console[method] = (...args: unknown[]) => {
      lines.push(format(...args));
      original.apply(console, args);
    };
    restore.push(() => {
      console[method] = original;
    });
  }
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write;
    stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof stream.write;
    restore.push(() => {
      stream.write = original;
    });
  }
  return {
    lines,
    stop: () => {
      for (const undo of restore.splice(0)) undo();
    },
  };
}
