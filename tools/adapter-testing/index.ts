import { once } from 'node:events';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhook, type PaymentEvent, type PaymentRoutesOptions, type SignedWebhook } from '@paymount/core';
import { startSandbox, type Sandbox, type SandboxOptions } from '@paymount/sandbox';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { resolveConformanceOrder, webhookPayload } from '../conformance/fixtures';

/**
 * What the adapters' framework-specific tests share: the sandbox as the payment
 * service, handler options pointing at it, and a real HTTP server per app.
 */
export interface AdapterFixture {
  sandbox: Sandbox;
  /** Every event the handlers ran for, in order. */
  events: PaymentEvent[];
  /** Handler options against the sandbox; their notifyUrl follows `mountedAt`. */
  options: PaymentRoutesOptions;
  /** Where the payment routes of the app under test are served, once it listens. */
  mountedAt(url: string): void;
  /** A delivery signed exactly as the service signs one: a successful payment of `transactionId` unless `overrides` say otherwise. */
  delivery(transactionId: string, overrides?: Record<string, unknown>): SignedWebhook;
  close(): Promise<void>;
}

/** `sandboxOptions` change the sandbox's defaults (local notify URLs, short webhook retries), e.g. to serve HTTPS. */
export async function startAdapterFixture(sandboxOptions: SandboxOptions = {}): Promise<AdapterFixture> {
  // The adapters' tests count what the app writes; the sandbox's own line about a refused delivery is the sandbox's tests' to check.
  const sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [50, 100], log: false, ...sandboxOptions });
  const events: PaymentEvent[] = [];
  let routesUrl = '';
  return {
    sandbox,
    events,
    options: {
      client: { ...sandbox.clientOptions(), retry: { maxAttempts: 1 } },
      resolveOrder: resolveConformanceOrder,
      notifyUrl: () => `${routesUrl}/webhook`,
      wallet: { gatewayId: sandbox.gatewayId },
      webhook: { secret: sandbox.webhookSecret },
      on: { '*': (event) => void events.push(event) },
      // Tests of the default console logging build their options without this.
      logger: false,
    },
    mountedAt(url) {
      routesUrl = url;
    },
    delivery: (transactionId, overrides = {}) =>
      signWebhook({ payload: webhookPayload({ ...overrides, transactionId }), secret: sandbox.webhookSecret }),
    close: () => sandbox.close(),
  };
}

export interface Listening {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

/** Serves a framework's request listener (an Express app, `koa.callback()`, Nest's Express instance) on 127.0.0.1, port 0. */
export async function listen(listener: RequestListener): Promise<Listening> {
  const server = createServer(listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** `options` as a merchant who passes no `logger` writes them: paymount then logs to the console. */
export function withDefaultLogger<T extends PaymentRoutesOptions>(options: T): T {
  const { logger: _given, ...rest } = options;
  return rest as T;
}

export interface ConsoleCapture {
  /** Every console line written while capturing, whoever wrote it. */
  readonly lines: string[];
  /** The lines of paymount's default logger. */
  paymount(): string[];
  /** Fails when any captured line holds one of `secrets`. */
  expectNoSecret(secrets: readonly string[]): void;
  restore(): void;
}

/**
 * Captures the console (where paymount logs when given no logger), so tests
 * read its lines and nothing reaches the terminal. Call `restore()` after.
 */
export function captureConsole(): ConsoleCapture {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  const spies = (['debug', 'info', 'log', 'warn', 'error'] as const).map((level) => vi.spyOn(console, level).mockImplementation(keep));
  return {
    lines,
    paymount: () => lines.filter((line) => line.startsWith('paymount ')),
    expectNoSecret(secrets) {
      expect(secrets.length).toBeGreaterThan(0);
      for (const secret of secrets) for (const line of lines) expect(line).not.toContain(secret);
    },
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}

export interface ConsoleTestHooks {
  /** The console of the running test. */
  readonly captured: ConsoleCapture;
  /** Closes `app` once the running test ends. */
  closeAfterTest<T extends { close(): Promise<void> }>(app: T): T;
}

/** For tests of what paymount writes to the console: captures it around each test, then closes the apps the test started. */
export function captureConsoleInEachTest(): ConsoleTestHooks {
  let current: ConsoleCapture | undefined;
  const open: Array<{ close(): Promise<void> }> = [];
  beforeEach(() => {
    current = captureConsole();
  });
  afterEach(async () => {
    current?.restore();
    await Promise.all(open.splice(0).map((app) => app.close()));
  });
  return {
    get captured() {
      if (!current) throw new Error('The console is captured only while a test runs.');
      return current;
    },
    closeAfterTest(app) {
      open.push(app);
      return app;
    },
  };
}
