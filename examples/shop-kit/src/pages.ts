import { fromMinorUnits } from '@paymount/core';
import type { Product } from './catalog';
import { html, type Html } from './html';
import type { Order } from './orders';

/** How the pages load the wallet: the sandbox's test wallet, or the real wallet client library. */
export interface WalletScript {
  kind: 'sandbox' | 'service';
  url: string;
  environment: 'TEST' | 'PRODUCTION';
}

export interface PageContext {
  /** Shown in the header, e.g. "Express shop". */
  shopName: string;
  /** Where the payment routes are mounted, e.g. "/payments". */
  mountPath: string;
  wallet: WalletScript;
  againstSandbox: boolean;
}

export function formatMoney(minor: number, currency: string): string {
  return `${fromMinorUnits(minor, currency)} ${currency}`;
}

function layout(ctx: PageContext, title: string, content: Html, scripts: Html | '' = ''): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${ctx.shopName}</title>
<link rel="stylesheet" href="/assets/shop.css">
</head>
<body data-mount="${ctx.mountPath}" data-wallet="${ctx.wallet.kind}" data-wallet-environment="${ctx.wallet.environment}">
<header><a href="/">${ctx.shopName}</a>${ctx.againstSandbox ? html` <span class="badge">sandbox</span>` : ''}</header>
<main>
${content}
</main>
${scripts}
</body>
</html>
`.value;
}

export function productPage(ctx: PageContext, products: readonly Product[]): string {
  const cards = products.map(
    (product) => html`<article class="product" data-sku="${product.sku}">
<h2>${product.name}</h2>
<p>${product.description}</p>
<p class="price">${formatMoney(product.unitPrice, product.currency)}</p>
<form method="post" action="/orders">
<input type="hidden" name="sku" value="${product.sku}">
<button type="submit">Buy</button>
</form>
</article>
`,
  );
  return layout(ctx, 'Products', html`<h1>Products</h1>
${cards}`);
}

const STATUS_LABELS: Readonly<Record<Order['status'], string>> = {
  pending: 'Pending',
  paid: 'Paid',
  failed: 'Payment failed',
};

function orderSummary(order: Order): Html {
  return html`<dl class="summary">
<dt>Item</dt><dd>${order.product.name}</dd>
<dt>Total</dt><dd class="total">${formatMoney(order.total, order.currency)}</dd>
<dt>Status</dt><dd><strong id="order-status" data-status="${order.status}">${STATUS_LABELS[order.status]}</strong></dd>
</dl>
<p id="order-note">${order.note}</p>`;
}

/** Every page showing an order watches its status, so the webhook's verdict appears without a manual reload. */
function statusWatcher(order: Order): Html {
  return html`<div hidden id="order-watch" data-order-id="${order.id}" data-version="${order.version}"></div>`;
}

export function orderPage(ctx: PageContext, order: Order): string {
  const payable = order.status !== 'paid';
  const actions = payable
    ? html`<section class="pay">
<form method="post" action="${ctx.mountPath}/checkout">
<input type="hidden" name="orderId" value="${order.id}">
<button type="submit" id="checkout">Checkout</button>
</form>
<button type="button" id="wallet-pay" data-order-id="${order.id}" disabled>Pay with wallet</button>
<p id="wallet-message" role="status"></p>
</section>`
    : '';
  const scripts = html`${payable ? html`<script src="${ctx.wallet.url}"></script>
` : ''}<script src="/assets/shop.js"></script>`;
  return layout(
    ctx,
    `Order ${order.id}`,
    html`<h1>Order <code>${order.id}</code></h1>
${orderSummary(order)}
${actions}
${statusWatcher(order)}`,
    scripts,
  );
}

export function returnPage(ctx: PageContext, order: Order): string {
  return layout(
    ctx,
    'Back from checkout',
    html`<h1 id="returned">Back from checkout</h1>
<p>The payment service tells the shop the outcome directly; this page follows it.</p>
${orderSummary(order)}
<p><a id="order-link" href="/orders/${order.id}">View your order</a></p>
${statusWatcher(order)}`,
    html`<script src="/assets/shop.js"></script>`,
  );
}

export function messagePage(ctx: PageContext, title: string, message: string): string {
  return layout(ctx, title, html`<h1>${title}</h1>
<p>${message}</p>
<p><a href="/">Back to the products</a></p>`);
}
