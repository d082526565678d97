import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPaymentClient, createPaymentRoutes, createRedactingLogger, PaymentValidationError, type PaymentRoutesOptions } from '../src';
import { Redactor } from '../src/entries/internal';
import { clientOptions } from './support/fixtures';

const written: Array<{ stream: string; line: string }> = [];
function captureConsole(): void {
  for (const level of ['debug', 'info', 'log', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void written.push({ stream: level, line: args.map(String).join(' ') }));
  }
}
afterEach(() => {
  vi.restoreAllMocks();
  written.length = 0;
});

describe('without a logger option', () => {
  it('warnings and errors go to the console, one redacted line each; debug and info go nowhere', () => {
    captureConsole();
    const redactor = new Redactor();
    redactor.addSecret('sk_test_default_logger_0123');
    const logger = createRedactingLogger(undefined, redactor);
    logger.debug({ detail: 'debug' }, 'a debug line');
    logger.info('an info line');
    logger.warn({ apiKey: 'anything', note: 'key sk_test_default_logger_0123' }, 'a warning\nover two lines');
    logger.error({ err: new Error('failed with sk_test_default_logger_0123') }, 'an error');
    expect(written.map((entry) => entry.stream)).toEqual(['warn', 'error']);
    const [warning, error] = written.map((entry) => entry.line);
    expect(warning).toBe('paymount warn: a warning over two lines {"apiKey":"[REDACTED]","note":"key [REDACTED]"}');
    expect(error).toMatch(/^paymount error: an error \{"err":\{"name":"Error","message":"failed with \[REDACTED\]","stack":"Error: failed with \[REDACTED\]\\n/);
    for (const { line } of written) {
      expect(line).not.toContain('\n');
      expect(line).not.toContain('sk_test_default_logger_0123');
    }
  });

  it('false, or a logger given, writes nothing to the console', () => {
    captureConsole();
    const seen: unknown[] = [];
    const own = { debug: () => {}, info: () => {}, warn: (...args: unknown[]) => void seen.push(args), error: () => {} };
    createRedactingLogger(false).error('silenced');
    createRedactingLogger(own).warn('to my logger');
    expect(written).toEqual([]);
    expect(seen).toEqual([['to my logger']]);
  });
});

describe('the logger option', () => {
  const handlerOptions = (logger: unknown): PaymentRoutesOptions =>
    ({ client: clientOptions('https://payments.example.com'), resolveOrder: () => null, webhook: { secret: 'whsec_default_logger_0123' }, logger }) as PaymentRoutesOptions;

  it('takes false, in the handlers and in the client', async () => {
    const handlers = createPaymentRoutes(handlerOptions(false));
    await handlers.close();
    await createPaymentClient(clientOptions('https://payments.example.com', { logger: false })).close();
  });

  it.each([[42], [true], [{ warn: () => {} }]])('refuses %j, naming both forms', (logger) => {
    for (const create of [() => createPaymentRoutes(handlerOptions(logger)), () => createPaymentClient(clientOptions('https://payments.example.com', { logger } as never))]) {
      let error: unknown;
      try {
        create();
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(PaymentValidationError);
      const issue = (error as PaymentValidationError).issues.find((i) => i.path === 'logger');
      expect(issue?.message).toMatch(/pino-compatible logger.*or false to log nothing/);
    }
  });
});
