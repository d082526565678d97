// The route conformance suite's app: a real Elysia app mounting `paymentPlugin` with the options the suite
// describes (tools/conformance/remote-app.mjs rebuilds them, their functions answered by the suite over
// HTTP), and the app's own route after it. Compiled by Elysia's production build (`bun build --compile`),
// served by `app.listen` on PORT, the description the process's one argument. What else the app does is
// set by the environment, for the adapter's own tests (support/elysia-app.ts says what each does).
import { Elysia, type Context } from 'elysia';
import { paymentPlugin } from '@paymount/elysia';
import { remoteRouteOptions } from '../../../../../tools/conformance/remote-app.mjs';
// The Elysia guide's order page, written there by support/elysia-app.ts before the build, which bundles it in.
import orderPage from '../../../.test-app/public/order.html';

const description = JSON.parse(process.argv[2] ?? '{}');
const appPrefix = process.env['APP_PREFIX'] ?? '';
const jsonParser = process.env['JSON_PARSER'];
let origin = '';
const remote = remoteRouteOptions(description, () => origin);
const { options } = remote;
// remote-app.mjs gives the options a logger writing to the suite.
const logger = options.logger as { info(fields: object, message: string): void };

/** What the plugin handed the merchant's functions as `ctx.context`, logged to the suite to be judged there. */
function probe(hook: string, context: Context & { shopper?: string }): void {
  logger.info(
    {
      contextProbe: {
        hook,
        route: context.route,
        shopper: context.shopper,
        header: context.headers['x-shopper'],
        query: context.query,
        hasRequest: context.request instanceof Request,
      },
    },
    'context probe',
  );
}
if (process.env['CONTEXT_PROBE'] === '1') {
  const { resolveOrder, on } = options;
  options.resolveOrder = (orderId, ctx) => (probe('resolveOrder', ctx.context as Context), resolveOrder(orderId, ctx));
  options.on = { '*': (event, ctx) => (probe('event', ctx.context as Context), on?.['*']?.(event, ctx as never)) };
}

/** As apps that log or validate bodies do: reads every JSON body, for the routes registered after it. */
const readJson = ({ request, contentType }: Context & { contentType: string }) => (contentType === 'application/json' ? request.json() : undefined);

const app = new Elysia({ prefix: appPrefix })
  // The guide's order page and the wallet it names: the sandbox the suite's client options point at. Before the
  // hooks: Elysia serves an HTML import only from a route no hook applies to, and answers it as JSON otherwise.
  .get('/orders/:id/pay', orderPage)
  .get('/wallet-source', () => ({ sandbox: description.client.baseUrl }))
  // notifyUrl names the app's own webhook route, at the address the requests come to. Not an onRequest hook:
  // with one, Elysia serves no route of the app from Bun's static routes, the HTML import's among them.
  .onTransform(({ request }) => {
    origin = new URL(request.url).origin;
  })
  // An answer waits for the log lines its request wrote, so the suite reads them once it has the answer.
  .onAfterHandle(() => remote.settled())
  .onError(() => remote.settled())
  .derive(({ headers }) => ({ shopper: headers['x-shopper'] }));
if (jsonParser === 'before') app.onParse(readJson);
app.use(paymentPlugin({ prefix: description.mountPath.slice(appPrefix.length), ...options }));
if (jsonParser === 'after') app.onParse(readJson);
app.get(`${description.mountPath.slice(appPrefix.length)}/own-route`, () => ({ own: true })).listen({ hostname: '127.0.0.1', port: Number(process.env['PORT']) });
