import { formatMinor } from '../currency';
import { html, Html } from '../html';
import { payableTotal } from '../rules/fields';
import type { CheckoutSessionRecord } from '../sessions';
import { isoTime } from '../iso-time';

const STYLE = `*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1f36;background:#f2f4f8}
.page{max-width:30rem;margin:0 auto;padding:1.25rem 1rem 2rem}
.merchant{display:flex;align-items:center;justify-content:space-between;gap:.75rem;margin:0 0 1rem}
.merchant-name{font-weight:650;font-size:1.05rem;margin:0;display:flex;align-items:center;gap:.5rem}
.merchant-name .logo{display:inline-grid;place-items:center;width:2rem;height:2rem;border-radius:8px;background:#3b3f8f;color:#fff;font-size:.95rem}
.test-mode{font-size:.75rem;font-weight:650;text-transform:uppercase;letter-spacing:.04em;color:#7a2e0e;background:#ffedd5;padding:.15rem .5rem;border-radius:999px}
.card{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(16,24,40,.12);padding:1.25rem;margin:0 0 1rem}
h1{font-size:1.35rem;margin:0 0 .25rem;line-height:1.3}h2{font-size:1rem;margin:0 0 .5rem}
.description{margin:0 0 1rem;color:#4a5163}
table{width:100%;border-collapse:collapse}th,td{padding:.35rem 0;text-align:left;vertical-align:top;font-weight:400}
td.num{text-align:right;white-space:nowrap;padding-left:1rem}
.each{display:block;font-size:.85rem;color:#4a5163}
tbody th,tbody td{border-bottom:1px solid #e6e8ef}
tfoot th,tfoot td{color:#4a5163}tfoot tr:first-child th,tfoot tr:first-child td{padding-top:.75rem}
tfoot tr.total-row th,tfoot tr.total-row td{color:#1a1f36;font-size:1.25rem;font-weight:700;border-top:1px solid #d0d4de;padding-top:.6rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
fieldset{border:0;margin:0 0 1rem;padding:0}legend{font-weight:650;margin:0 0 .5rem;padding:0}
label{display:block;margin:0 0 .6rem;font-size:.9rem;color:#30364a}
input[type=text],input:not([type]){display:block;width:100%;margin-top:.2rem;font:inherit;padding:.6rem .7rem;border:1px solid #8a91a5;border-radius:8px}
.choice{display:flex;gap:.6rem;align-items:flex-start;border:1px solid #c9cede;border-radius:8px;padding:.7rem .8rem;margin:0 0 .5rem;cursor:pointer}
.choice input{margin-top:.3rem;width:1.1rem;height:1.1rem;flex:none}.choice small{display:block;color:#4a5163}
.wallet-button{display:flex;align-items:center;justify-content:center;gap:.6rem;width:100%;min-height:3rem;font-family:inherit;font-size:1.05rem;font-weight:600;color:#fff;background:#000;border:0;border-radius:8px;cursor:pointer}
.wallet-button:focus-visible,.link-button:focus-visible,a:focus-visible{outline:3px solid #3b82f6;outline-offset:2px}
.wallet-button svg{width:1.4rem;height:1.4rem}
.secure{font-size:.85rem;color:#4a5163;text-align:center;margin:.75rem 0 0}
.cancel{text-align:center;margin:0}
.link-button{font:inherit;color:#2f3580;background:none;border:0;text-decoration:underline;cursor:pointer;padding:.5rem;min-height:2.75rem}
.error{color:#8a1c1c;background:#fde8e8;border-radius:8px;padding:.6rem .8rem;margin:0 0 1rem}
.state{text-align:center}.state .icon{display:inline-grid;place-items:center;width:3.5rem;height:3.5rem;border-radius:50%;font-size:1.75rem;margin:0 0 .5rem}
.state-paid .icon{background:#dcfce7;color:#14532d}.state-failed .icon,.state-expired .icon,.state-missing .icon,.state-refused .icon{background:#fde8e8;color:#8a1c1c}
.state-cancelled .icon{background:#e6e8ef;color:#30364a}
.state p{margin:.5rem 0 1rem;color:#30364a}
a.button{display:inline-block;padding:.7rem 1.2rem;border-radius:8px;background:#2f3580;color:#fff;text-decoration:none;font-weight:600}`;

const WALLET_ICON = new Html(
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="2" y="5" width="20" height="15" rx="3" fill="none" stroke="currentColor" stroke-width="2"/><path d="M16 12.5h4" stroke="currentColor" stroke-width="2" stroke-linecap="round"/><path d="M5 5l10-3 2 3" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>',
);

function page(title: string, merchantName: string, body: Html): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}: ${merchantName}</title><style>${new Html(STYLE)}</style></head>
<body><div class="page"><header class="merchant"><p class="merchant-name"><span class="logo" aria-hidden="true">${merchantName.slice(0, 1).toUpperCase()}</span>${merchantName}</p>
<span class="test-mode">Test mode</span></header>
<main>${body}</main></div></body></html>`.text;
}

export const ADDRESS_FIELDS = ['name', 'line1', 'city', 'postalCode', 'country'] as const;
const ADDRESS_LABELS: Record<(typeof ADDRESS_FIELDS)[number], string> = {
  name: 'Full name',
  line1: 'Address',
  city: 'City',
  postalCode: 'Postal code',
  country: 'Country (2 letters)',
};
const ADDRESS_AUTOCOMPLETE: Record<(typeof ADDRESS_FIELDS)[number], string> = {
  name: 'name',
  line1: 'address-line1',
  city: 'address-level2',
  postalCode: 'postal-code',
  country: 'country',
};

function addressFieldset(kind: 'billing' | 'shipping', values: Record<string, string>): Html {
  const rows = ADDRESS_FIELDS.map(
    (field) =>
      html`<label>${ADDRESS_LABELS[field]} <input name="${kind}_${field}" value="${values[`${kind}_${field}`] ?? ''}" autocomplete="${kind} ${ADDRESS_AUTOCOMPLETE[field]}" required></label>`,
  );
  return html`<fieldset><legend>${kind === 'billing' ? 'Billing address' : 'Shipping address'}</legend>${rows}</fieldset>`;
}

/** The order summary: line items (or the description as one line), subtotal, tax, surcharge and the payable total. */
function orderSummary(session: CheckoutSessionRecord): Html {
  const { request } = session;
  const { amount } = request;
  const money = (minor: number) => formatMinor(minor, amount.priceCurrency);
  const items = request.productList?.length
    ? request.productList.map(
        (item) =>
          html`<tr><th scope="row">${item.name} × ${item.num}${item.num > 1 ? html`<span class="each">${money(item.amount)} each</span>` : undefined}</th><td class="num">${money(item.amount * item.num)}</td></tr>`,
      )
    : [html`<tr><th scope="row">${request.description}</th><td class="num">${money(amount.orderAmount)}</td></tr>`];
  const extra = (label: string, minor: number | undefined) =>
    minor ? html`<tr><th scope="row">${label}</th><td class="num">${money(minor)}</td></tr>` : undefined;
  return html`<section class="card" aria-labelledby="summary-title"><h2 id="summary-title">Order summary</h2>
<table><thead class="visually-hidden"><tr><th scope="col">Item</th><th scope="col">Amount</th></tr></thead>
<tbody>${items}</tbody>
<tfoot><tr><th scope="row">Subtotal</th><td class="num" id="subtotal">${money(amount.orderAmount)}</td></tr>${extra('Tax', amount.taxAmount)}${extra('Surcharge', amount.surchargeAmount)}
<tr class="total-row"><th scope="row">Total</th><td class="num total" id="total">${money(payableTotal(amount))}</td></tr></tfoot></table></section>`;
}

export interface CheckoutPageOptions {
  merchantName: string;
  /** Shown above the form after a refused submission. */
  error?: string;
  /** Refill the form after a refused submission. */
  values?: Record<string, string>;
}

/** The payment page of an open session. */
export function renderCheckoutPage(session: CheckoutSessionRecord, options: CheckoutPageOptions): string {
  const { request, sessionId } = session;
  const { merchantName } = options;
  const values = options.values ?? {};
  const action = `/hosted/checkout/${sessionId}`;
  const expires = isoTime(session.expiresAt).slice(11, 16);
  return page(
    'Checkout',
    merchantName,
    html`<h1>Pay ${merchantName}</h1>
<p class="description" id="description">${request.description}</p>
${orderSummary(session)}
<section class="card" aria-labelledby="pay-title"><h2 id="pay-title">Payment</h2>
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : undefined}
<form method="post" action="${action}/pay">
${request.collectBillingAddress ? addressFieldset('billing', values) : undefined}
${request.collectShippingAddress ? addressFieldset('shipping', values) : undefined}
<fieldset><legend>Test wallet card</legend>
<label class="choice"><input type="radio" name="testCard" value="approve" checked><span>Card with CRYPTOGRAM_3DS<small>Approved, unless the total is a sandbox decline amount</small></span></label>
<label class="choice"><input type="radio" name="testCard" value="additional-3ds"><span>Card whose issuer requires additional 3DS<small>Declined</small></span></label>
</fieldset>
<button type="submit" id="pay" class="wallet-button">${WALLET_ICON}<span>Pay with test wallet</span></button>
<p class="secure">Sandbox checkout: no real card is charged. This page expires at ${expires} UTC.</p>
</form></section>
<form method="post" action="${action}/cancel" class="cancel"><button type="submit" id="cancel" class="link-button">${
      request.merchantReturnUrl ? `Cancel and return to ${merchantName}` : 'Cancel payment'
    }</button></form>`,
  );
}

/** How a finished, expired or unknown checkout, or a form refused for coming from another site, is shown. */
export type NoticeKind = 'paid' | 'failed' | 'cancelled' | 'expired' | 'missing' | 'refused';
const ICONS: Readonly<Record<NoticeKind, string>> = { paid: '✓', failed: '!', cancelled: '×', expired: '⏱', missing: '?', refused: '!' };

export interface NoticePage {
  kind: NoticeKind;
  title: string;
  message: string;
  merchantName: string;
  /** A link back to the shop, when the session has a merchantReturnUrl. */
  returnUrl?: string;
}

export function renderNoticePage(notice: NoticePage): string {
  return page(
    notice.title,
    notice.merchantName,
    html`<section class="card state state-${notice.kind}" data-state="${notice.kind}"><span class="icon" aria-hidden="true">${ICONS[notice.kind]}</span>
<h1>${notice.title}</h1><p class="notice" id="notice">${notice.message}</p>${
      notice.returnUrl ? html`<a class="button" href="${notice.returnUrl}" id="return">Return to ${notice.merchantName}</a>` : undefined
    }</section>`,
  );
}
