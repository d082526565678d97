// The Hono app of the quick start, its payment routes against an embedded sandbox, on
// @hono/node-server: what the README's "An app-wide auth middleware" block and the guarded app
// register, each in its order.
import { serve } from '@hono/node-server';
import { paymentApp } from '@paymount/hono';
import { startSandbox } from '@paymount/sandbox';
import { Hono, type Context } from 'hono';
import { sandboxPaymentOptions } from './payment-options.js';

const port = process.env['PORT'] ?? '3000';
const sandbox = await startSandbox({ allowLocalNotifyUrl: true });

export const app = new Hono();
// The options' context named: left to inference from paymentApp's generic Env, it is Context<never>.
export const payments = paymentApp(sandboxPaymentOptions<Context>(sandbox, port));

/** Listens on PORT once the app's middleware is registered; SIGTERM closes it, the routes and the sandbox. */
export function listen(): void {
  const server = serve({ fetch: app.fetch, port: Number(port) });
  process.once('SIGTERM', () => server.close(() => void payments.paymentRoutes.close().then(() => sandbox.close())));
}
