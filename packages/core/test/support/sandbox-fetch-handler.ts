import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll } from 'vitest';
import { createFetchHandler, type FetchHandler, type PaymentRoutesOptions } from '../../src';

export interface SandboxFetchHandler {
  readonly sandbox: Sandbox;
  readonly handler: FetchHandler;
}

/**
 * The routes as a Worker serves them (`createFetchHandler`, mounted at /payments) against a real
 * sandbox, started before the file's tests and closed after them. No logger option: what the
 * routes log goes to the console, as a merchant's app has it without configuration.
 */
export function sandboxFetchHandler(resolveOrder: PaymentRoutesOptions['resolveOrder']): SandboxFetchHandler {
  let sandbox: Sandbox | undefined;
  let handler: FetchHandler | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ log: false });
    handler = createFetchHandler({ client: sandbox.clientOptions(), resolveOrder, webhook: { secret: sandbox.webhookSecret } }, { mountPath: '/payments' });
  });
  afterAll(async () => {
    await handler?.paymentRoutes.close();
    await sandbox?.close();
  });
  return {
    get sandbox() {
      if (!sandbox) throw new Error('the sandbox starts before the tests run');
      return sandbox;
    },
    get handler() {
      if (!handler) throw new Error('the handler is made before the tests run');
      return handler;
    },
  };
}
