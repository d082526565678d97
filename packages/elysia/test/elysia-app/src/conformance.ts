// The route conformance suite's app: a real Elysia app mounting `paymentPlugin` with the options the suite
// describes (tools/conformance/remote-app.mjs rebuilds them, their functions answered by the suite over
// HTTP), and the app's own route after it. Compiled by Elysia's production build (`bun build --compile`),
// served by `app.listen` on PORT, the description the process's one argument. APP_PREFIX puts the app
// under an Elysia prefix of its own (the plugin's prefix is the rest of the mount path); READS_BODIES_FIRST=1
// registers a global parser reading every JSON body before the plugin, as apps that log bodies do.
import { Elysia } from 'elysia';
import { paymentPlugin } from '@paymount/elysia';
import { remoteRouteOptions } from '../../../../../tools/conformance/remote-app.mjs';

const description = JSON.parse(process.argv[2] ?? '{}');
const appPrefix = process.env['APP_PREFIX'] ?? '';
let origin = '';
const remote = remoteRouteOptions(description, () => origin);

const app = new Elysia({ prefix: appPrefix })
  // notifyUrl names the app's own webhook route, at the address the requests come to.
  .onRequest(({ request }) => {
    origin = new URL(request.url).origin;
  })
  // An answer waits for the log lines its request wrote, so the suite reads them once it has the answer.
  .onAfterHandle(() => remote.settled())
  .onError(() => remote.settled());
if (process.env['READS_BODIES_FIRST'] === '1') app.onParse(({ request, contentType }) => (contentType === 'application/json' ? request.json() : undefined));

app
  .use(paymentPlugin({ prefix: description.mountPath.slice(appPrefix.length), ...remote.options }))
  .get(`${description.mountPath.slice(appPrefix.length)}/own-route`, () => ({ own: true }))
  .listen({ hostname: '127.0.0.1', port: Number(process.env['PORT']) });
