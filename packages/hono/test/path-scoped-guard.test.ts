import { describeGuardHolds, SESSION_COOKIE } from '../../../tools/adapter-testing/login-guard';
import { startHonoApp } from './support';

describeGuardHolds('hono', (options) =>
  startHonoApp(options, {
    before: (app) =>
      app.use('/payments/checkout', async (c, next) =>
        c.req.header('cookie') === SESSION_COOKIE ? next() : c.json({ error: 'login required' }, 401),
      ),
  }),
);
