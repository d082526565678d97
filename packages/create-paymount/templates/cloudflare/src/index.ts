import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { paymentApp } from '@paymount/hono';
import { CATALOG } from './catalog.js';
import { ConfigError, readConfig, type Settings } from './config.js';
import { Orders } from './orders.js';
import { homePage, loginPage, messagePage, orderPage, type PageContext } from './pages.js';
import { MOUNT, notifyUrlOf, paymentOptions, SHOP_NAME, type PaymentBindings } from './payments.js';
import { StaffLogin } from './staff.js';

// The Durable Object class behind paymount's stores: the Worker's entry exports it for its binding.
export { PaymountState } from '@paymount/cloudflare';

type ShopEnv = { Bindings: PaymentBindings & Settings };
type ShopContext = Context<ShopEnv>;

/** The shop for this request: its settings, orders and login, from the Worker's bindings (cheap to make). */
function shopOf(c: ShopContext) {
  const config = readConfig(c.env);
  const wallet = config.sandboxUrl ? { sandbox: config.sandboxUrl } : { environment: config.walletEnvironment, scriptUrl: config.walletScriptUrl };
  const walletOrigin = new URL(config.sandboxUrl ?? config.walletScriptUrl).origin;
  const page: PageContext = { shopName: SHOP_NAME, wallet };
  // Scripts only from the shop and the wallet: a page that handles a wallet token runs nothing else.
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'self'; script-src 'self' ${walletOrigin}; connect-src 'self' ${walletOrigin}; frame-src ${walletOrigin}; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
  };
  return {
    config,
    page,
    orders: new Orders(c.env.DB),
    staff: new StaffLogin(c.env.DB, config.staffPassword, config.publicUrl.startsWith('https:')),
    html: (status: 200 | 400 | 401 | 404 | 409, body: string) => c.body(body, status, headers),
  };
}

/** Only a path on this shop: a `next` pointing elsewhere would make the login an open redirect. */
function localPath(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) ? next : '/';
}

const app = new Hono<ShopEnv>();

// paymount's routes, their options made from the Worker's settings on the first payment request of each isolate.
const payments = paymentApp<ShopEnv>((c) => paymentOptions(readConfig(c.env), c.env));
app.route(MOUNT, payments);

const form = bodyLimit({ maxSize: 2048 });

app.get('/', (c) => {
  const shop = shopOf(c);
  return shop.html(200, homePage(shop.page));
});

/** The buy form: the order and its price are made here, from the catalogue. */
app.post('/orders', form, async (c) => {
  const shop = shopOf(c);
  const { sku } = await c.req.parseBody();
  const product = CATALOG.find((item) => item.sku === sku);
  if (!product) return shop.html(400, messagePage(shop.page, 'Unknown product', 'That product is not for sale here.'));
  const order = await shop.orders.create(product);
  return c.redirect(`/orders/${order.id}`, 303);
});

app.get('/orders/:id', async (c) => {
  const shop = shopOf(c);
  const order = await shop.orders.find(c.req.param('id'));
  if (!order) return shop.html(404, messagePage(shop.page, 'Order not found', 'There is no such order in this shop.'));
  return shop.html(200, orderPage(shop.page, order, await shop.staff.isStaff(c.req.header('cookie'))));
});

/** Staff only: the whole payment, through the routes' client. The refund's webhook marks the order refunded. */
app.post('/orders/:id/refund', async (c) => {
  const shop = shopOf(c);
  const id = c.req.param('id');
  if (!(await shop.staff.isStaff(c.req.header('cookie')))) return c.redirect(`/login?next=/orders/${encodeURIComponent(id)}`, 303);
  const order = await shop.orders.find(id);
  if (order?.status !== 'paid' || order.transactionId === null) return shop.html(409, messagePage(shop.page, 'Nothing to refund', 'This order has no payment to refund.'));
  const { client } = await payments.getPaymentRoutes(c);
  await client.refund({ originalTransactionId: order.transactionId, notifyUrl: notifyUrlOf(shop.config.publicUrl) });
  return c.redirect(`/orders/${order.id}`, 303);
});

app.get('/login', (c) => {
  const shop = shopOf(c);
  return shop.html(200, loginPage(shop.page, localPath(c.req.query('next')), false));
});

app.post('/login', form, async (c) => {
  const shop = shopOf(c);
  const fields = await c.req.parseBody();
  const cookie = await shop.staff.signIn(fields['password']);
  const next = localPath(fields['next']);
  if (!cookie) return shop.html(401, loginPage(shop.page, next, true));
  c.header('set-cookie', cookie);
  return c.redirect(next, 303);
});

app.onError((error, c) => {
  // A setting's problem names the variable (never its value); anything else keeps its stack, in the log only.
  console.error(error instanceof ConfigError ? `The shop cannot serve: ${error.message}` : error);
  return c.text('The shop cannot serve this request; its log says why.', 500);
});

export default app;
