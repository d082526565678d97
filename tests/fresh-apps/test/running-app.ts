import { afterAll, beforeAll, expect } from 'vitest';
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

interface AttemptView {
  status?: number;
  diagnosis: { outcome: string; why: string; fix?: string };
}

/** The dashboard's data for one order, once its delivery has `attempts` answered attempts; its page's HTML as JSON text. */
export async function dashboardDelivery(dashboardUrl: string, orderId: string, attempts: number) {
  let seen: unknown;
  return waitFor(
    async () => {
      const res = await fetch(`${dashboardUrl}/data?orderId=${orderId}`);
      const { snapshot, html } = (await res.json()) as { snapshot: { deliveries: { attempts: AttemptView[] }[] }; html: unknown };
      seen = snapshot.deliveries;
      const delivery = snapshot.deliveries[0];
      const answered = delivery?.attempts.filter((attempt) => attempt.diagnosis.outcome !== 'pending').length ?? 0;
      return delivery && answered >= attempts ? { delivery, html: JSON.stringify(html) } : undefined;
    },
    () => `no delivery with ${attempts} attempts for ${orderId}: ${JSON.stringify(seen)}`,
    20_000,
  );
}

/**
 * Each framework's way out of its app-wide auth, as the diagnosis names it, by README, and whether
 * the sandbox can be sure from that app's refusal which framework it is (then it names that way out
 * alone; else first, then the others).
 */
const AUTH_FIXES: Record<string, { fix: string; certain: boolean }> = {
  // Nest's exception body ({"message":"Forbidden resource",...,"statusCode":403}).
  nestjs: { fix: 'NestJS, controllerDecorators', certain: true },
  // Fastify's 72-second keep-alive (the hook answers a body of its own).
  fastify: { fix: 'Fastify, skip the onRequest hook', certain: true },
  // x-powered-by: Express.
  express: { fix: 'Express, mount the payment router before the auth middleware', certain: true },
  // Koa's lower-case charset, without Express's x-powered-by: likely, not sure.
  koa: { fix: 'Koa, use the payment middleware before the auth middleware', certain: false },
  // bearerAuth's Fetch API Response (text/plain;charset=UTF-8): likely, not sure.
  hono: { fix: 'Hono, wrap the auth middleware in except(', certain: false },
  // The proxy's Fetch API Response, with Next.js's vary: Accept-Encoding: likely, not sure.
  next: { fix: 'Next.js, leave the payment routes out of the matcher', certain: false },
};

/** The diagnosis's fix for the `readme` app's auth refusal: its framework's way out first, and alone when the sandbox can be sure. */
export function expectAuthFix(fix: string | undefined, readme: string): void {
  const expected = AUTH_FIXES[readme];
  if (!expected) throw new Error(`no way out for ${readme} in AUTH_FIXES`);
  expect(fix?.startsWith(`exempt the payment routes from it: ${expected.fix}`), fix).toBe(true);
  const others = Object.entries(AUTH_FIXES).filter(([name]) => name !== readme);
  for (const [, other] of others) {
    if (expected.certain) expect(fix).not.toContain(other.fix);
    else expect(fix).toContain(other.fix);
  }
}
