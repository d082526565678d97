// Registers the payment plugin on the app (after its hooks, as an app that had them first would)
// against an embedded sandbox, and listens on PORT.
import type { FastifyInstance } from 'fastify';
import { paymentPlugin } from '@paymount/fastify';
import { startSandbox } from '@paymount/sandbox';
import { sandboxPaymentOptions } from './payment-options.js';

export async function serveWithPayments(app: FastifyInstance): Promise<void> {
  const port = process.env['PORT'] ?? '3000';
  const sandbox = await startSandbox({ allowLocalNotifyUrl: true });
  await app.register(paymentPlugin, { prefix: '/payments', ...sandboxPaymentOptions(sandbox, port) });
  app.addHook('onClose', async () => sandbox.close());
  await app.listen({ port: Number(port) });
  process.once('SIGTERM', () => void app.close());
}
