import { formatMinor } from '../currency';
import { payableTotal } from '../rules/fields';
import type { CheckoutSessionRecord } from '../sessions';
import { html, Html } from '../html';

const STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
table{width:100%;border-collapse:collapse}td{padding:.25rem 0}td.num{text-align:right}
fieldset{margin:1rem 0;border:1px solid #ccc}label{display:block;margin:.25rem 0}
.total{font-size:1.4rem;font-weight:600}.error{color:#b00020}.notice{padding:1rem;border:1px solid #ccc}
button{font-size:1rem;padding:.5rem 1rem;margin-right:.5rem}`;

function page(title: string, body: Html): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>${new Html(STYLE)}</style></head>
<body>${body}</body></html>`.text;
}

export const ADDRESS_FIELDS = ['name', 'line1', 'city', 'postalCode', 'country'] as const;
const ADDRESS_LABELS: Record<(typeof ADDRESS_FIELDS)[number], string> = {
  name: 'Full name',
  line1: 'Address',
  city: 'City',
  postalCode: 'Postal code',
  country: 'Country (2 letters)',
};

function addressFieldset(kind: 'billing' | 'shipping', values: Record<string, string>): Html {
  const rows = ADDRESS_FIELDS.map(
    (field) =>
      html`<label>${ADDRESS_LABELS[field]} <input name="${kind}_${field}" value="${values[`${kind}_${field}`] ?? ''}" required></label>`,
  );
  return html`<fieldset><legend>${kind === 'billing' ? 'Billing address' : 'Shipping address'}</legend>${rows}</fieldset>`;
}

/** The payment page of an open session. `values` refill the form after a refused submission. */
export function renderCheckoutPage(session: CheckoutSessionRecord, options: { error?: string; values?: Record<string, string> } = {}): string {
  const { request, sessionId } = session;
  const currency = request.amount.priceCurrency;
  const money = (minor: number) => formatMinor(minor, currency);
  const items = (request.productList ?? []).map(
    (item) => html`<tr><td>${item.name} × ${item.num}</td><td class="num">${money(item.amount * item.num)}</td></tr>`,
  );
  const extras = [
    request.amount.taxAmount ? html`<tr><td>Tax</td><td class="num">${money(request.amount.taxAmount)}</td></tr>` : undefined,
    request.amount.surchargeAmount
      ? html`<tr><td>Surcharge</td><td class="num">${money(request.amount.surchargeAmount)}</td></tr>`
      : undefined,
  ].filter((row): row is Html => row !== undefined);
  const values = options.values ?? {};
  const action = `/hosted/checkout/${sessionId}`;
  return page(
    'Checkout',
    html`<h1>Checkout</h1>
<p id="description">${request.description}</p>
<table>${items}${extras}
<tr><td>Total</td><td class="num total" id="total">${money(payableTotal(request.amount))}</td></tr></table>
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : undefined}
<form method="post" action="${action}/pay">
${request.collectBillingAddress ? addressFieldset('billing', values) : undefined}
${request.collectShippingAddress ? addressFieldset('shipping', values) : undefined}
<fieldset><legend>Test wallet</legend>
<label><input type="radio" name="testCard" value="approve" checked> Card with CRYPTOGRAM_3DS</label>
<label><input type="radio" name="testCard" value="additional-3ds"> Card whose issuer requires additional 3DS</label>
</fieldset>
<button type="submit" id="pay">Pay with test wallet</button>
</form>
<form method="post" action="${action}/cancel"><button type="submit" id="cancel">Cancel</button></form>`,
  );
}

export function renderNoticePage(title: string, message: string, returnUrl?: string): string {
  return page(
    title,
    html`<h1>${title}</h1><p class="notice" id="notice">${message}</p>${
      returnUrl ? html`<p><a href="${returnUrl}">Return to the shop</a></p>` : undefined
    }`,
  );
}
