// The Koa app of the quick start, its payment middleware against an embedded sandbox: what the
// README's "An app-wide auth middleware" block and the guarded app use, each in its order.
import { paymentMiddleware } from '@paymount/koa';
import { startSandbox } from '@paymount/sandbox';
import Koa from 'koa';
import { sandboxPaymentOptions } from './payment-options.js';

const port = process.env['PORT'] ?? '3000';
const sandbox = await startSandbox({ allowLocalNotifyUrl: true });

export const app = new Koa();
export const payments = paymentMiddleware({ mountPath: '/payments', ...sandboxPaymentOptions(sandbox, port) });

/** Listens on PORT once the app's middleware is used; SIGTERM closes it, the routes and the sandbox. */
export function listen(): void {
  const server = app.listen(Number(port));
  process.once('SIGTERM', () => server.close(() => void payments.paymentRoutes.close().then(() => sandbox.close())));
}
