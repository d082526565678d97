import { listen } from '../../../tools/adapter-testing';
import { describeGuardHolds, loginGuard } from '../../../tools/adapter-testing/login-guard';
import { createNodeMiddleware } from '../src/index';

describeGuardHolds('createNodeMiddleware on a plain node:http server', async (options) => {
  const payments = createNodeMiddleware(options, { mountPath: '/payments' });
  // Scoped as connect-style `use('/payments/checkout', guard)` scopes it: that path as sent, and the paths below it.
  const app = await listen((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const guarded = path === '/payments/checkout' || path.startsWith('/payments/checkout/');
    if (guarded) loginGuard(req, res, () => payments(req, res));
    else payments(req, res);
  });
  return {
    url: app.url,
    async close() {
      await app.close();
      await payments.paymentRoutes.close();
    },
  };
});
