import { fromMinorUnits } from '@paymount/core';
import type { Product } from './catalog';
import { html, type Html } from './html';
import { awaitingRefunds, isPaid, refundableAmount, refundedAmount, type Order, type OrderStatus, type RefundState } from './orders';

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

/**
 * `canonical`: the page's own GET address. A page answered to a form post
 * (a back-office action) shows it instead of the post's, so that a reload
 * fetches the page and never posts the form again.
 */
function layout(ctx: PageContext, title: string, content: Html, scripts: Html | '' = '', canonical?: string): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${ctx.shopName}</title>
<link rel="stylesheet" href="/assets/shop.css">
</head>
<body data-mount="${ctx.mountPath}" data-wallet="${ctx.wallet.kind}" data-wallet-script="${ctx.wallet.url}" data-wallet-environment="${ctx.wallet.environment}"${canonical === undefined ? '' : html` data-canonical="${canonical}"`}>
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

const STATUS_LABELS: Readonly<Record<OrderStatus, string>> = {
  pending: 'Pending',
  paid: 'Paid',
  failed: 'Payment failed',
  partially_refunded: 'Partially refunded',
  refunded: 'Refunded',
};

/** Whether the customer may (still, or again) pay the order. */
export function isPayable(order: Order): boolean {
  return order.status === 'pending' || order.status === 'failed';
}

function orderSummary(order: Order): Html {
  const refunded = refundedAmount(order);
  return html`<dl class="summary">
<dt>Item</dt><dd>${order.product.name}</dd>
<dt>Total</dt><dd class="total">${formatMoney(order.total, order.currency)}</dd>
<dt>Status</dt><dd><strong id="order-status" data-status="${order.status}">${STATUS_LABELS[order.status]}</strong></dd>
${refunded > 0 ? html`<dt>Refunded</dt><dd id="refunded-amount">${formatMoney(refunded, order.currency)}</dd>
` : ''}</dl>
<p id="order-note">${order.note}</p>`;
}

/**
 * An order the customer may pay follows its payment through the payment
 * routes' GET /status, so the webhook's verdict appears without a manual
 * reload; a paid order's payment cannot change any more.
 */
function paymentWatcher(ctx: PageContext, order: Order): Html | '' {
  if (!isPayable(order)) return '';
  return html`<div hidden id="payment-watch" data-order-id="${order.id}" data-status="${order.status}"></div>`;
}

/** What a message on the order page is: the outcome of a back-office action. */
export interface Notice {
  kind: 'error' | 'done';
  text: string;
}

const REFUND_STATE_TEXT: Readonly<Record<RefundState, string>> = {
  requested: 'requested, awaiting the service',
  succeeded: 'refunded',
  failed: 'failed',
};

function refundList(order: Order): Html | '' {
  if (order.refunds.length === 0) return '';
  const items = order.refunds.map(
    (refund) => html`<li class="refund" data-state="${refund.state}">${formatMoney(refund.amount, order.currency)} ${REFUND_STATE_TEXT[refund.state]}${refund.reason === undefined ? '' : html`: <span class="reason">${refund.reason}</span>`}</li>
`,
  );
  return html`<ul id="refunds">
${items}</ul>`;
}

function refundForms(order: Order): Html | '' {
  const remaining = refundableAmount(order);
  if (remaining === 0) return '';
  const action = `/orders/${order.id}/refund`;
  return html`<form method="post" action="${action}" class="refund-full">
<input type="hidden" name="scope" value="full">
<button type="submit" id="refund-full">Refund ${formatMoney(remaining, order.currency)} in full</button>
</form>
<form method="post" action="${action}" class="refund-partial">
<input type="hidden" name="scope" value="partial">
<label>Amount (${order.currency}) <input name="amount" id="refund-amount" inputmode="decimal" autocomplete="off" placeholder="${fromMinorUnits(remaining, order.currency)}" required></label>
<button type="submit" id="refund-partial">Refund part</button>
</form>`;
}

/** The customer may have left a hosted checkout open: the back office can end it. */
function cancelCheckoutForm(order: Order): Html {
  return html`<form method="post" action="/orders/${order.id}/cancel-checkout" class="cancel-checkout">
<button type="submit" id="cancel-checkout">Cancel open checkout</button>
<small>Ends the customer's hosted checkout page, if one is open; the order can be checked out again.</small>
</form>`;
}

/**
 * What the merchant's staff does with an order: cancel its open checkout, or
 * refund it once paid. A demo shop shows it on the order page itself; a real
 * back office sits behind the staff's login.
 */
function backOffice(order: Order, notice: Notice | undefined): Html | '' {
  const forms = isPaid(order) ? refundForms(order) : cancelCheckoutForm(order);
  const awaiting = awaitingRefunds(order);
  if (forms === '' && order.refunds.length === 0 && notice === undefined) return '';
  return html`<section class="back-office">
<h2>Back office</h2>
${notice ? html`<p id="back-office-notice" class="notice ${notice.kind}" role="status">${notice.text}</p>
` : ''}${refundList(order)}
${forms}
${awaiting > 0 ? html`<div hidden id="refund-watch" data-url="/orders/${order.id}/refunds" data-awaiting="${awaiting}"></div>` : ''}
</section>`;
}

export function orderPage(ctx: PageContext, order: Order, notice?: Notice): string {
  const payable = isPayable(order);
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
  // shop.js loads the wallet's script itself (@paymount/browser), before the shopper can click.
  const scripts = html`<script src="/assets/shop.js"></script>`;
  return layout(
    ctx,
    `Order ${order.id}`,
    html`<h1>Order <code id="order-id">${order.id}</code></h1>
${orderSummary(order)}
${actions}
${paymentWatcher(ctx, order)}
${backOffice(order, notice)}`,
    scripts,
    `/orders/${order.id}`,
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
${paymentWatcher(ctx, order)}`,
    html`<script src="/assets/shop.js"></script>`,
  );
}

export function messagePage(ctx: PageContext, title: string, message: string): string {
  return layout(ctx, title, html`<h1>${title}</h1>
<p>${message}</p>
<p><a href="/">Back to the products</a></p>`);
}
