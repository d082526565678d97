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
      mountPath: MOUNT_PATH,
      ...shop.payments,
      // The amount charged comes from the server-side order, never from the browser.
      resolveOrder: (orderId) => shop.resolveOrder(orderId),
      // Each event's order update commits in the transaction that marks the event handled.
      on: { '*': shop.onPaymentEvent },
    });
    // Used before any body parser: the webhook route verifies the raw bytes.
    app.use(payments);

    const form = bodyParser({ enableTypes: ['form'], formLimit: '1kb' });
    const office = shop.backOffice(payments.paymentRoutes);
    const router = new Router();
    router.get('/', (ctx) => send(ctx, shop.home()));
    router.post('/orders', form, async (ctx) =>
      send(ctx, await shop.placeOrder((ctx.request.body as Record<string, unknown> | undefined)?.['sku'], ctx.headers)),
    );
    router.get('/orders/:id', async (ctx) => send(ctx, await shop.orderPage(ctx.params['id'] ?? '')));
    // The back office, through the payment routes object: cancel an abandoned checkout, refund a paid order.
    router.post('/orders/:id/cancel-checkout', async (ctx) => send(ctx, await office.cancelCheckout(ctx.params['id'] ?? '', ctx.headers)));
    router.post('/orders/:id/refund', form, async (ctx) =>
      send(ctx, await office.refund(ctx.params['id'] ?? '', ctx.request.body, ctx.headers)),
    );
    router.get('/orders/:id/refunds', async (ctx) => send(ctx, await office.refunds(ctx.params['id'] ?? '')));
    router.get('/return', async (ctx) => send(ctx, await shop.returnPage(ctx.query['orderId'])));
    router.get('/assets/:name', (ctx) => send(ctx, shop.asset(ctx.params['name'] ?? '')));
    app.use(router.routes()).use(router.allowedMethods());

    return { listener: app.callback(), paymentRoutes: payments.paymentRoutes, close: () => payments.paymentRoutes.close() };
  });
}
