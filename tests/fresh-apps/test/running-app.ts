import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../../readmes/test/support/quick-start';
import { startApp, type RunningApp } from '../src/run';

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
