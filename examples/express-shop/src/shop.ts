import express, { type Response } from 'express';
import { paymentRouter } from '@paymount/express';
import { MOUNT_PATH, startShopServer, type RunningShop, type ShopResponse, type StartShopOptions } from '@paymount/example-shop-kit';

function send(res: Response, answer: ShopResponse): void {
  res.status(answer.status).set(answer.headers).send(answer.body);
}

/** The Express shop: the payment router mounted at /payments, and the shop's own pages. */
export function startExpressShop(options: StartShopOptions = {}): Promise<RunningShop> {
  return startShopServer('Express shop', options, (shop) => {
    const app = express();
    app.disable('x-powered-by');

    const payments = paymentRouter({
      ...shop.payments,
      // The amount charged comes from the server-side order, never from the browser.
      resolveOrder: (orderId) => shop.resolveOrder(orderId),
      // Each event's order update commits in the transaction that marks the event handled.
      on: { '*': shop.onPaymentEvent },
    });
    // Mounted before any body parser: the webhook route verifies the raw bytes.
    app.use(MOUNT_PATH, payments);

    const form = express.urlencoded({ extended: false, limit: '1kb' });
    const office = shop.backOffice(payments.paymentRoutes);
    app.get('/', (_req, res) => send(res, shop.home()));
    app.post('/orders', form, async (req, res) => send(res, await shop.placeOrder((req.body as Record<string, unknown> | undefined)?.['sku'], req.headers)));
    app.get('/orders/:id', async (req, res) => send(res, await shop.orderPage(req.params.id)));
    // The back office, through the payment routes object: cancel an abandoned checkout, refund a paid order.
    app.post('/orders/:id/cancel-checkout', async (req, res) => send(res, await office.cancelCheckout(req.params.id, req.headers)));
    app.post('/orders/:id/refund', form, async (req, res) => send(res, await office.refund(req.params.id, req.body, req.headers)));
    app.get('/orders/:id/refunds', async (req, res) => send(res, await office.refunds(req.params.id)));
    app.get('/return', async (req, res) => send(res, await shop.returnPage(req.query['orderId'])));
    app.get('/assets/:name', (req, res) => send(res, shop.asset(req.params.name)));

    return { listener: app, paymentRoutes: payments.paymentRoutes, close: () => payments.paymentRoutes.close() };
  });
}
