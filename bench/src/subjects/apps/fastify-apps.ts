import Fastify, { type FastifyInstance } from 'fastify';
import { paymentPlugin } from '@paymount/fastify';
import { Pool } from 'undici';
import { checkoutByHand } from '../handwritten/routes';
import { countEvent, paymountOptions, type AppSetup } from './paymount-options';

export async function paymountFastify(upstream: string, setup?: AppSetup): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(paymentPlugin, { ...paymountOptions(upstream, countEvent, setup), prefix: '/payments' });
  return app;
}

export function handWrittenFastify(upstream: string): FastifyInstance {
  const pool = new Pool(upstream);
  const app = Fastify();
  app.post('/payments/checkout', async (request, reply) => {
    const answer = await checkoutByHand(pool, upstream, request.body);
    return reply.code(answer.status).send(answer.body);
  });
  return app;
}
