// A Fastify app with a global onRequest auth hook in front of every route, the payment plugin's too.
import { app } from './fastify-app.js';
import { serveWithPayments } from './fastify-serve.js';

app.addHook('onRequest', async (request, reply) => {
  if (request.headers.authorization !== `Bearer ${process.env['API_TOKEN']}`) return reply.code(401).send({ error: 'sign in first' });
});
await serveWithPayments(app);
