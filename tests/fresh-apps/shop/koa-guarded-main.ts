// A Koa app whose global auth middleware is used before the payment middleware, as in an app that
// had it first: every request meets it, the webhook's too.
import { app, listen, payments } from './koa-app.js';

app.use(async (ctx, next) => {
  if (ctx.get('authorization') !== `Bearer ${process.env['API_TOKEN']}`) {
    ctx.status = 401;
    ctx.body = { error: 'sign in first' };
    return;
  }
  await next();
});
app.use(payments);
listen();
