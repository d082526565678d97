import bodyParser from '@koa/bodyparser';
import { paymentMiddleware } from '@paymount/koa';
import Koa from 'koa';
import { Pool } from 'undici';
import { checkoutByHand } from '../handwritten/routes';
import { countEvent, paymountOptions, type AppSetup } from './paymount-options';

export function paymountKoa(upstream: string, setup?: AppSetup): Koa {
  const app = new Koa();
  app.use(paymentMiddleware({ mountPath: '/payments', ...paymountOptions(upstream, countEvent, setup) }));
  return app;
}

export function handWrittenKoa(upstream: string): Koa {
  const pool = new Pool(upstream);
  const app = new Koa();
  app.use(bodyParser());
  app.use(async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== '/payments/checkout') return next();
    const answer = await checkoutByHand(pool, upstream, ctx.request.body);
    ctx.status = answer.status;
    ctx.body = answer.body;
  });
  return app;
}
