import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../../readmes/test/support/quick-start';
import { startApp, waitFor, type RunningApp } from '../src/run';

/** Starts `dist/<main>` of the app before the suite's tests (its shop holding `orderId`), stops it after; resolves the running app. */
export function appForSuite(appDir: string, main: string, orderId: string): () => RunningApp {
  let running: RunningApp | undefined;
  beforeAll(async () => {
    running = await startApp(appDir, main, await freePort(), { [orderId]: 2500 });
  });
  afterAll(async () => {
    await running?.stop();
  });
  return () => {
    if (!running) throw new Error(`${main} did not start`);
    return running;
  };
}

/** The sandbox's deliveries of `orderId` once none is pending (the handler runs before the app answers: the sandbox records the answer a moment later). */
export async function settledDeliveries(sandboxUrl: string, orderId: string) {
  let seen: unknown;
  return waitFor(
    async () => {
      const { deliveries } = (await (await fetch(`${sandboxUrl}/sandbox/deliveries`)).json()) as {
        deliveries: { event: string; state: string; url: string; payload: { referenceOrderId?: string } }[];
      };
      const order = deliveries.filter((delivery) => delivery.payload.referenceOrderId === orderId);
      seen = order;
      return order.length > 0 && order.every((delivery) => delivery.state !== 'pending') ? order : undefined;
    },
    () => `the order's delivery stayed pending: ${JSON.stringify(seen)}`,
    20_000,
  );
}
