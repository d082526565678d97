// @ts-check
// The conformance suite's app through @paymount/hono, as its README mounts it:
// `app.route('/payments', paymentApp(options))` in a Hono app, the app's own
// route after it. Imported by package name, so the runtime's export conditions
// pick core's build under @paymount/hono.
import { paymentApp } from '@paymount/hono';
import { Hono } from 'hono';
import { remoteApp } from '../../../tools/conformance/remote-app.mjs';

/** @param {import('../../../tools/conformance/remote').RemoteRouteDescription} description */
export function honoConformanceApp(description) {
  return remoteApp(description, (options) => {
    const app = new Hono();
    const payments = paymentApp(options);
    app.route(description.mountPath, payments);
    app.get(`${description.mountPath}/own-route`, (c) => c.json({ own: true }));
    return { fetch: (request) => app.fetch(request), close: () => payments.paymentRoutes.close() };
  });
}
