import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createPaymentRoutes, type AdapterOptionKinds, type PaymentRoutes, type PaymentRoutesOptions } from '@paymount/core';
import { normalizeMountPath, pathUnderMount, rawPathOf, toNeutralRequest } from '@paymount/core/http';

/** `resolveOrder` and the event handlers get the `FastifyRequest` as `ctx.context`. */
export interface PaymentPluginOptions extends PaymentRoutesOptions<FastifyRequest> {
  /** Serve the routes under this path, e.g. '/payments'; Fastify's own `register` option. Default: at the root. */
  prefix?: string;
}

/** The plugin's own option beside the routes', checked with theirs. */
const FASTIFY_OPTIONS = { prefix: 'routerPath' } as const satisfies AdapterOptionKinds;

declare module 'fastify' {
  interface FastifyInstance {
    /** The core routes behind the plugin: `paymentRoutes.client`, `.on(...)`. */
    paymentRoutes: PaymentRoutes<FastifyRequest>;
  }
}

/** The routes, in a context of their own: the catch-all parser below never reaches the app's other routes. */
function routesPlugin(paymentRoutes: PaymentRoutes<FastifyRequest>) {
  return async (routes: FastifyInstance): Promise<void> => {
    // Parsers inherited from the app (its JSON parser too) would consume the bytes the webhook signature covers.
    routes.removeAllContentTypeParsers();
    // Leaves the stream unread, so core reads the exact bytes with its own limit and 413 answer.
    routes.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const prefix = normalizeMountPath(routes.prefix);
    routes.all('/*', async (request: FastifyRequest, reply: FastifyReply) => {
      // Not the wildcard parameter: find-my-way decodes it (`%63heckout` is `checkout` there), a guard matching the URL does not.
      const path = pathUnderMount(rawPathOf(request.raw.url ?? '/'), prefix);
      const response =
        path === undefined
          ? undefined
          : await paymentRoutes.handle(toNeutralRequest(request.raw, { path, context: request, limitBytes: paymentRoutes.readLimitBytes }));
      if (response === undefined) return reply.callNotFound();
      return reply.code(response.status).headers(response.headers).send(response.body);
    });
  };
}

/**
 * The payment routes as a Fastify plugin: `app.register(paymentPlugin, { prefix: '/payments', ...options })`.
 * It skips encapsulation like a `fastify-plugin` plugin so `app.paymentRoutes` is visible to the app,
 * and registers the routes themselves in an encapsulated child under `prefix`.
 */
export async function paymentPlugin(app: FastifyInstance, options: PaymentPluginOptions): Promise<void> {
  const paymentRoutes = createPaymentRoutes(options, FASTIFY_OPTIONS);
  app.decorate('paymentRoutes', paymentRoutes);
  app.addHook('onClose', () => paymentRoutes.close());
  await app.register(routesPlugin(paymentRoutes), { prefix: options.prefix ?? '' });
}

// What `fastify-plugin` sets, without the dependency: run in the registering context, under a readable name.
Object.assign(paymentPlugin, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: '@paymount/fastify',
  [Symbol.for('plugin-meta')]: { name: '@paymount/fastify', fastify: '4.x || 5.x' },
});
