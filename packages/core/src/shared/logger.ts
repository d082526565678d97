/**
 * Logging goes through one redacting wrapper around any pino-compatible logger.
 * Redaction works two ways: by key (any field that can hold a credential or a
 * wallet token is replaced whatever its value) and by value (registered secrets
 * such as the API key are cut out of every string, so they cannot leak through
 * an error message or a URL).
 */
export interface LogFn {
  (obj: object, msg?: string): void;
  (msg: string): void;
}

/** The subset of pino's interface paymount calls. pino, console-like adapters and test spies all fit. */
export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

export const REDACTED = '[REDACTED]';

const SENSITIVE_KEY =
  /^(authorization|proxy-authorization|api[-_]?key|apikey|secret|secrets|webhook[-_]?secrets?|password|token|wallettoken|cardencrypteddata|carddata|signature|signedmessage|x-signature|cookie|set-cookie)$/i;

const noop: LogFn = () => {};

export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };

/**
 * What a `logger` option takes: a pino-compatible logger, or `false` to log
 * nothing. Left out, paymount writes its warnings and errors to the console.
 */
export type LoggerOption = Logger | false;

/** One line, whatever the message holds: a log collector reading stderr line by line keeps each entry whole. */
function consoleLine(level: 'warn' | 'error', objOrMsg: object | string, msg?: string): string {
  const [text, fields] = typeof objOrMsg === 'string' ? [objOrMsg, undefined] : [msg ?? '', objOrMsg];
  const json = fields === undefined || Object.keys(fields).length === 0 ? '' : ` ${JSON.stringify(fields)}`;
  return `paymount ${level}: ${text.replace(/\s*[\r\n]+\s*/g, ' ')}${json}`;
}

/**
 * The logger used when none is given: warnings and errors, one line each, on
 * stderr through the console, so a failure is never silent by default.
 * Debug and info lines are dropped (and, behind a redacting logger, never built).
 */
export const consoleLogger: Logger = {
  debug: noop,
  info: noop,
  // The one place paymount writes to the console: the default sink when the merchant gave no logger.
  // eslint-disable-next-line no-console
  warn: (objOrMsg: object | string, msg?: string) => console.warn(consoleLine('warn', objOrMsg, msg)),
  // eslint-disable-next-line no-console
  error: (objOrMsg: object | string, msg?: string) => console.error(consoleLine('error', objOrMsg, msg)),
};

/** The logger a `logger` option stands for: the console when left out, none for `false`. */
function loggerFrom(option: LoggerOption | undefined): Logger {
  if (option === undefined) return consoleLogger;
  return option === false ? silentLogger : option;
}

const MAX_DEPTH = 8;

export class Redactor {
  private readonly secrets = new Set<string>();

  /**
   * Registers a value to cut out of every logged string, whatever its length:
   * a secret too short to mask without mangling ordinary text is refused by
   * the options (MIN_SECRET_LENGTH) before it gets here, never left unmasked.
   */
  addSecret(value: string | undefined): void {
    if (value) this.secrets.add(value);
  }

  redactString(text: string): string {
    let out = text;
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return out;
  }

  redact(value: unknown): unknown {
    return redactValue(value, (text) => this.redactString(text));
  }

  /**
   * `error` as an Error whose name, message and stack have the secrets cut
   * out: for code that keeps an error beyond the log, such as a queue storing
   * a failed job's reason and stack trace where no redacting logger reads it.
   */
  redactError(error: unknown): Error {
    const cut = (text: string) => this.redactString(text);
    if (!(error instanceof Error)) return new Error(cut(String(error)));
    const redacted = new Error(cut(error.message));
    redacted.name = cut(error.name);
    redacted.stack = error.stack === undefined ? undefined : cut(error.stack);
    return redacted;
  }
}

/**
 * `value` with every field that can hold a credential or a wallet token
 * replaced, and `cut` applied to every string left: how a log line, or data
 * quoted from the service, is made safe to keep.
 */
export function redactValue(value: unknown, cut: (text: string) => string, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return cut(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[Truncated]';
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  if (value instanceof Error) {
    // The stack is where an unexpected failure is found; it repeats the message, so it is cut the same way.
    return {
      name: value.name,
      message: cut(value.message),
      ...(value.stack === undefined ? {} : { stack: cut(value.stack) }),
      ...(redactValue({ ...value }, cut, depth + 1, seen) as object),
    };
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, cut, depth + 1, seen));
  if (value instanceof Uint8Array) return `[${value.byteLength} bytes]`;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SENSITIVE_KEY.test(key) ? REDACTED : redactValue(inner, cut, depth + 1, seen);
  }
  return out;
}

/**
 * Wraps a logger (as a `logger` option gives it: left out, the console; `false`,
 * none) so every line it receives has passed through `redactor`.
 */
export function createRedactingLogger(option?: LoggerOption, redactor = new Redactor()): Logger & { redactor: Redactor } {
  const target = loggerFrom(option);
  const wrap = (level: keyof Logger): LogFn => {
    // A level the target drops costs nothing: its fields are not even redacted.
    if (target[level] === noop) return noop;
    return (objOrMsg: object | string, msg?: string) => {
      if (typeof objOrMsg === 'string') {
        target[level](redactor.redactString(objOrMsg));
      } else {
        const fields = redactor.redact(objOrMsg) as object;
        if (msg === undefined) target[level](fields);
        else target[level](fields, redactor.redactString(msg));
      }
    };
  };
  return { debug: wrap('debug'), info: wrap('info'), warn: wrap('warn'), error: wrap('error'), redactor };
}
