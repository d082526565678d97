// The Express app of the quick start, its payment router against an embedded sandbox: what the
// README's "An app-wide auth middleware" block and the guarded app mount, each in its order.
import { paymentRouter } from '@paymount/express';
import { startSandbox } from '@paymount/sandbox';
import express from 'express';
import { sandboxPaymentOptions } from './payment-options.js';

const port = process.env['PORT'] ?? '3000';
const sandbox = await startSandbox({ allowLocalNotifyUrl: true });

export const app = express();
export const payments = paymentRouter(sandboxPaymentOptions(sandbox, port));

/** Listens on PORT once the app's middleware is mounted; SIGTERM closes it, the routes and the sandbox. */
export function listen(): void {
  const server = app.listen(Number(port));
  process.once('SIGTERM', () => server.close(() => void payments.paymentRoutes.close().then(() => sandbox.close())));
}
