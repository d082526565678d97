import express from 'express';
import { paymentRouter } from '@paymount/express';
import { Pool } from 'undici';
import { checkoutByHand, webhookByHand, type RouteAnswer } from '../handwritten/routes';
import { countEvent, paymountOptions, type AppSetup } from './paymount-options';

export function paymountExpress(upstream: string, setup?: AppSetup): express.Express {
  const app = express();
  app.use('/payments', paymentRouter(paymountOptions(upstream, countEvent, setup)));
  return app;
}

export function handWrittenExpress(upstream: string): express.Express {
  const pool = new Pool(upstream);
  const webhook = webhookByHand(countEvent);
  const send = (res: express.Response, answer: RouteAnswer) => res.status(answer.status).json(answer.body);
  const app = express();
  app.post('/payments/checkout', express.json(), (req, res, next) => {
    checkoutByHand(pool, upstream, req.body).then((answer) => send(res, answer), next);
  });
  app.post('/payments/webhook', express.raw({ type: 'application/json' }), (req, res) => {
    send(res, webhook(req.body as Buffer, req.headers));
  });
  return app;
}
