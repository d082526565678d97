// The route conformance suite's app: a real Elysia app mounting `paymentPlugin` with the options the suite
// describes (tools/conformance/remote-app.mjs rebuilds them, their functions answered by the suite over
// HTTP), and the app's own route after it. Compiled by Elysia's production build (`bun build --compile`),
// served by `app.listen` on PORT, the description the process's one argument.
import { Elysia } from 'elysia';
import { paymentPlugin } from '@paymount/elysia';
import { remoteRouteOptions } from '../../../../../tools/conformance/remote-app.mjs';

const description = JSON.parse(process.argv[2] ?? '{}');
let origin = '';
const remote = remoteRouteOptions(description, () => origin);

new Elysia()
  // notifyUrl names the app's own webhook route, at the address the requests come to.
  .onRequest(({ request }) => {
    origin = new URL(request.url).origin;
  })
  // An answer waits for the log lines its request wrote, so the suite reads them once it has the answer.
  .onAfterHandle(() => remote.settled())
  .onError(() => remote.settled())
  .use(paymentPlugin({ prefix: description.mountPath, ...remote.options }))
  .get(`${description.mountPath}/own-route`, () => ({ own: true }))
  .listen({ hostname: '127.0.0.1', port: Number(process.env['PORT']) });
