import Koa, { type Context } from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import { paymentMiddleware } from '@paymount/koa';
import { MOUNT_PATH, startShopServer, type RunningShop, type ShopResponse, type StartShopOptions } from '@paymount/example-shop-kit';

function send(ctx: Context, answer: ShopResponse): void {
  // Status first: Koa turns an assigned body into a 200 otherwise.
  ctx.status = answer.status;
  ctx.set(answer.headers);
  ctx.body = answer.body;
}

/** The Koa shop: the payment middleware under /payments, and the shop's own pages on a router. */
export function startKoaShop(options: StartShopOptions = {}): Promise<RunningShop> {
  return startShopServer('Koa shop', options, (shop) => {
    const app = new Koa();

    const payments = paymentMiddleware({
      prefix: MOUNT_PATH,
      ...shop.payments,
      // The amount charged comes from the server-side order, never from the browser.
      resolveOrder: (orderId) => shop.resolveOrder(orderId),
      on: { '*': (event) => shop.recordPaymentEvent(event) },
    });
    // Used before any body parser: the webhook route verifies the raw bytes.
    app.use(payments);

    const router = new Router();
    router.get('/', (ctx) => send(ctx, shop.home()));
    router.post('/orders', bodyParser({ enableTypes: ['form'], formLimit: '1kb' }), (ctx) =>
      send(ctx, shop.placeOrder((ctx.request.body as Record<string, unknown> | undefined)?.['sku'])),
    );
    router.get('/orders/:id', (ctx) => send(ctx, shop.orderPage(ctx.params['id'] ?? '')));
    router.get('/orders/:id/status', (ctx) => send(ctx, shop.orderStatus(ctx.params['id'] ?? '')));
    router.get('/return', (ctx) => send(ctx, shop.returnPage(ctx.query['orderId'])));
    router.get('/assets/:name', (ctx) => send(ctx, shop.asset(ctx.params['name'] ?? '')));
    app.use(router.routes()).use(router.allowedMethods());

    return { listener: app.callback(), handlers: payments.handlers, close: () => payments.handlers.close() };
  });
}
