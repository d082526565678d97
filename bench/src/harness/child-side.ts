import type { FromChild, ToChild } from './child-process';

/** The JSON argument the harness started this process with. */
export function childArgs<T>(): T {
  const raw = process.argv[2];
  if (raw === undefined) throw new Error('started without its JSON argument; run it through the bench harness');
  return JSON.parse(raw) as T;
}

function send(message: FromChild): void {
  process.send?.(message);
}

/**
 * Runs a child's setup, tells the harness it is ready (with what setup
 * returned, e.g. a URL), then answers its requests one by one. The child ends
 * when the harness stops it or goes away.
 */
export function serveHarness<Ready>(setup: () => Promise<{ ready: Ready; handle?: (request: unknown) => Promise<unknown> }>): void {
  process.once('SIGTERM', () => process.exit(0));
  process.once('disconnect', () => process.exit(0));
  setup().then(
    ({ ready, handle }) => {
      process.on('message', (message: ToChild) => {
        if (message.kind !== 'request') return;
        if (isCpuQuery(message.value)) {
          send({ kind: 'reply', id: message.id, value: process.cpuUsage() });
          return;
        }
        if (!handle) {
          send({ kind: 'failed', id: message.id, message: 'this process takes no requests' });
          return;
        }
        handle(message.value).then(
          (value) => send({ kind: 'reply', id: message.id, value }),
          (error: unknown) => send({ kind: 'failed', id: message.id, message: describe(error) }),
        );
      });
      send({ kind: 'ready', value: ready });
    },
    (error: unknown) => send({ kind: 'failed', message: describe(error) }),
  );
}

/** `{ cpuUsage: true }`: every child answers it itself, with how much CPU it has used so far. */
function isCpuQuery(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { cpuUsage?: unknown }).cpuUsage === true;
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
