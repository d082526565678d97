import { CATALOG, formatPrice } from './catalog.js';
import { html, type Html } from './html.js';
import { isPayable, ORDER_STATUS_TEXT, type Order } from './order-rules.js';
import { MOUNT } from './payments.js';

/** What the browser's wallet button loads: the sandbox's test wallet, or the wallet's client library. */
export type WalletSource = { sandbox: string } | { environment: 'TEST' | 'PRODUCTION'; scriptUrl: string };

export interface PageContext {
  shopName: string;
  wallet: WalletSource;
}

function layout(context: PageContext, title: string, body: Html, data: Record<string, string> = {}): string {
  const attributes = Object.entries(data).map(([name, value]) => html` data-${name}="${value}"`);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${context.shopName}</title>
<link rel="stylesheet" href="/assets/shop.css">
</head>
<body${attributes}>
<header><a href="/">${context.shopName}</a></header>
<main>
${body}
</main>
</body>
</html>
`.text;
}

/** The product page: each buy form places an order on the server, which then takes its payment. */
export function homePage(context: PageContext): string {
  const products = CATALOG.map(
    (product) => html`<li><h2>${product.name}</h2><p class="price">${formatPrice(product.price, product.currency)}</p>
<form method="post" action="/orders"><input type="hidden" name="sku" value="${product.sku}"><button type="submit">Buy</button></form></li>`,
  );
  return layout(context, 'Shop', html`<h1>Products</h1><ul class="products">${products}</ul>`);
}

/**
 * An order's page, where the shopper pays and where the service sends them back: the hosted checkout's
 * form (paymount's checkout route answers 303 to the service's page), the wallet button, and the
 * payment followed until the webhook settles it (public/shop.js). Staff see the refund action.
 */
export function orderPage(context: PageContext, order: Order, staff: boolean): string {
  const payable = isPayable(order);
  const wallet: Record<string, string> = 'sandbox' in context.wallet
    ? { 'sandbox-url': context.wallet.sandbox }
    : { 'wallet-environment': context.wallet.environment, 'wallet-script': context.wallet.scriptUrl };
  const pay = html`<form method="post" action="${MOUNT}/checkout" id="checkout-form">
<input type="hidden" name="orderId" value="${order.id}"><button type="submit" id="checkout">Pay on the checkout page</button></form>
<button type="button" id="wallet-pay" disabled>Pay with wallet</button>
<p id="payment-message" role="status"></p>
<script type="module" src="/assets/shop.js"></script>`;
  const refund = staff
    ? html`<form method="post" action="/orders/${order.id}/refund"><button type="submit" id="refund">Refund in full</button></form>`
    : html`<p><a href="/login?next=/orders/${order.id}">Staff: sign in to refund</a></p>`;
  const body = html`<h1>Order ${order.id}</h1>
<p>${order.name}: ${formatPrice(order.amount, order.currency)}</p>
<p id="status" data-status="${order.status}">${ORDER_STATUS_TEXT[order.status]}</p>
${payable ? pay : order.status === 'paid' ? refund : html``}`;
  return layout(context, `Order ${order.id}`, body, payable ? { 'order-id': order.id, mount: MOUNT, ...wallet } : {});
}

export function loginPage(context: PageContext, next: string, refused: boolean): string {
  return layout(
    context,
    'Staff sign-in',
    html`<h1>Staff sign-in</h1>
${refused ? html`<p role="alert">That password is not the staff password.</p>` : html``}
<form method="post" action="/login"><input type="hidden" name="next" value="${next}">
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form>
<p>A stub: one password from STAFF_PASSWORD. Put your own login in its place (src/staff.ts).</p>`,
  );
}

export function messagePage(context: PageContext, title: string, message: string): string {
  return layout(context, title, html`<h1>${title}</h1><p>${message}</p><p><a href="/">Back to the shop</a></p>`);
}
