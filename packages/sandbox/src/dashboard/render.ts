import { formatMinor } from '../currency';
import { html, Html } from '../html';
import { isFailure } from '../webhooks/diagnosis';
import { WEBHOOK_EVENTS } from '../webhooks/event-name';
import type { AttemptView, CallView, DashboardSnapshot, DeliveryView, SessionRow } from './snapshot';

/** How much of a receiver's answer a row shows; the JSON view has all the log keeps. */
export const ANSWER_SHOWN_CHARS = 600;

const STYLE = `*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2933;background:#f5f7fa}
header.top{background:#102a43;color:#fff;padding:.75rem 1.25rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:baseline}
header.top h1{font-size:1.15rem;margin:0}header.top p{margin:0;color:#d9e2ec}header.top code{color:#fff}
main{padding:1rem 1.25rem;max-width:80rem;margin:0 auto}
section{background:#fff;border:1px solid #d9e2ec;border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem}
h2{font-size:1.05rem;margin:.25rem 0 .75rem}
table{width:100%;border-collapse:collapse;font-size:.9rem}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #e4e7eb;vertical-align:top}
th{color:#3e4c59;font-weight:600}td.num{text-align:right;white-space:nowrap}
code{font:.85em ui-monospace,SFMono-Regular,Menlo,monospace;word-break:break-all}
.badge{display:inline-block;padding:0 .45rem;border-radius:999px;font-size:.8rem;font-weight:600;background:#e4e7eb;color:#1f2933}
.ok{background:#dcfce7;color:#14532d}.bad{background:#fee2e2;color:#7f1d1d}.wait{background:#fef3c7;color:#713f12}
.controls{display:flex;flex-wrap:wrap;gap:1rem}.controls form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
label{display:flex;flex-direction:column;font-size:.85rem;color:#3e4c59;gap:.15rem}
input,select{font:inherit;padding:.3rem .45rem;border:1px solid #9aa5b1;border-radius:4px;min-width:0}
button{font:inherit;padding:.3rem .8rem;border-radius:4px;border:1px solid #243b53;background:#243b53;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#243b53}
.delivery{border:1px solid #d9e2ec;border-radius:6px;padding:.6rem .75rem;margin:.5rem 0}
.delivery-head{display:flex;flex-wrap:wrap;gap:.35rem .75rem;align-items:center}.delivery-head form{margin-left:auto}
ol.attempts{margin:.5rem 0 0;padding-left:1.4rem}ol.attempts li{margin:.35rem 0}
.why{margin:.2rem 0}.fix{margin:.2rem 0;padding:.35rem .5rem;background:#fff8e1;border-left:3px solid #b7791f}
pre{white-space:pre-wrap;word-break:break-all;background:#f0f4f8;padding:.4rem .5rem;border-radius:4px;margin:.25rem 0;font-size:.8rem}
.notice{padding:.5rem .75rem;border-radius:6px;background:#dcfce7;color:#14532d;margin:0 0 1rem}
.notice.error{background:#fee2e2;color:#7f1d1d}.muted{color:#52606d}
@media (max-width:40rem){th.wide,td.wide{display:none}}`;

const time = (iso: string) => iso.slice(11, 19);
const stateClass = (state: string) =>
  ['paid', 'delivered', 'S'].includes(state) ? 'ok' : ['open', 'pending', 'I', 'P'].includes(state) ? 'wait' : 'bad';
const TRANSACTION_STATES: Readonly<Record<string, string>> = { S: 'succeeded', F: 'failed', C: 'closed', I: 'processing', P: 'pending' };

function badge(state: string, label = state): Html {
  return html`<span class="badge ${stateClass(state)}">${label}</span>`;
}

/** A hidden field keeping the order filter across a form post, so the page comes back filtered. */
function keepFilter(orderId: string | undefined): Html | undefined {
  return orderId === undefined ? undefined : html`<input type="hidden" name="orderId" value="${orderId}">`;
}

function emptyRow(columns: number, what: string): Html {
  return html`<tr><td colspan="${columns}" class="muted">No ${what} yet.</td></tr>`;
}

function sessionRow(session: SessionRow, orderId: string | undefined): Html {
  const expire =
    session.state === 'open'
      ? html`<form method="post" action="/sandbox/dashboard/sessions/${session.sessionId}/expire">${keepFilter(orderId)}<button type="submit" class="secondary" aria-label="Expire session ${session.sessionId}">Expire</button></form>`
      : undefined;
  return html`<tr data-session-id="${session.sessionId}" data-state="${session.state}">
<td><code>${session.referenceOrderId}</code></td><td class="wide">${session.description}</td>
<td class="num">${formatMinor(session.payableTotal, session.priceCurrency)}</td>
<td>${badge(session.state)}${session.closeReason ? html` <span class="muted">${session.closeReason}</span>` : undefined}</td>
<td class="wide">${time(session.createdAt)} → ${time(session.expiresAt)}</td><td class="wide"><code>${session.sessionId}</code></td><td>${expire}</td></tr>`;
}

function sessionsSection(snapshot: DashboardSnapshot): Html {
  const rows = snapshot.sessions.map((session) => sessionRow(session, snapshot.orderId));
  return html`<h2 id="sessions-title">Checkout sessions</h2><table aria-labelledby="sessions-title"><thead><tr>
<th scope="col">Order</th><th scope="col" class="wide">Description</th><th scope="col" class="num">Total</th><th scope="col">State</th>
<th scope="col" class="wide">Created → expires</th><th scope="col" class="wide">Session</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${rows.length > 0 ? rows : emptyRow(7, 'checkout sessions')}</tbody></table>`;
}

function paymentsSection(snapshot: DashboardSnapshot): Html {
  const rows = snapshot.charges.map(
    (charge) => html`<tr data-transaction-id="${charge.transactionId}" data-status="${charge.transactionStatus}">
<td><code>${charge.referenceOrderId ?? ''}</code></td><td class="wide">${charge.description ?? ''}</td><td>${charge.channel}</td>
<td class="num">${formatMinor(charge.payableTotal, charge.amount.priceCurrency)}</td>
<td>${badge(charge.transactionStatus, TRANSACTION_STATES[charge.transactionStatus] ?? charge.transactionStatus)}${
      charge.reason ? html` <span class="muted">${charge.reason.code}: ${charge.reason.message}</span>` : undefined
    }</td><td class="wide">${time(charge.createdAt)}</td><td class="wide"><code>${charge.transactionId}</code></td></tr>`,
  );
  return html`<h2 id="payments-title">Payments</h2><table aria-labelledby="payments-title"><thead><tr>
<th scope="col">Order</th><th scope="col" class="wide">Description</th><th scope="col">Channel</th><th scope="col" class="num">Total</th>
<th scope="col">Status</th><th scope="col" class="wide">At</th><th scope="col" class="wide">Transaction</th></tr></thead>
<tbody>${rows.length > 0 ? rows : emptyRow(7, 'payments')}</tbody></table>`;
}

function refundsSection(snapshot: DashboardSnapshot): Html {
  const rows = snapshot.refunds.map(
    (refund) => html`<tr data-transaction-id="${refund.transactionId}" data-status="${refund.transactionStatus}">
<td><code>${refund.referenceOrderId ?? ''}</code></td><td class="num">${formatMinor(refund.amount.totalAmount, refund.amount.priceCurrency)}</td>
<td>${badge(refund.transactionStatus, TRANSACTION_STATES[refund.transactionStatus] ?? refund.transactionStatus)}${
      refund.reason ? html` <span class="muted">${refund.reason.code}: ${refund.reason.message}</span>` : undefined
    }</td><td class="wide">${time(refund.createdAt)}</td><td class="wide"><code>${refund.originalTransactionId}</code></td>
<td class="wide"><code>${refund.transactionId}</code></td></tr>`,
  );
  return html`<h2 id="refunds-title">Refunds</h2><table aria-labelledby="refunds-title"><thead><tr>
<th scope="col">Order</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col" class="wide">At</th>
<th scope="col" class="wide">Payment</th><th scope="col" class="wide">Refund</th></tr></thead>
<tbody>${rows.length > 0 ? rows : emptyRow(6, 'refunds')}</tbody></table>`;
}

function callRow(call: CallView): Html {
  const explained = call.message === undefined ? undefined : html`<p class="why">${call.message}</p>`;
  const rule = call.rule === undefined ? undefined : html`<p class="muted">${call.code}: ${call.rule}</p>`;
  const fix = call.fix === undefined ? undefined : html`<p class="fix"><strong>Fix:</strong> ${call.fix}</p>`;
  return html`<tr data-trace-id="${call.traceId}" data-code="${call.code}" data-refused="${String(call.refused)}">
<td>${badge(call.refused ? 'refused' : 'S', call.refused ? `${call.code} refused` : 'answered')}</td>
<td><code>${call.method} ${call.path}</code>${explained}${rule}${fix}</td><td class="num">${call.status}</td>
<td class="wide">${time(call.at)}</td><td class="wide"><code>${call.traceId}</code></td></tr>`;
}

function callsSection(snapshot: DashboardSnapshot): Html {
  const rows = snapshot.calls.map(callRow);
  return html`<h2 id="calls-title">Service calls (refusals first)</h2><table aria-labelledby="calls-title"><thead><tr>
<th scope="col">Answer</th><th scope="col">Call, and why it was refused</th><th scope="col" class="num">HTTP</th>
<th scope="col" class="wide">At</th><th scope="col" class="wide">Trace</th></tr></thead>
<tbody>${rows.length > 0 ? rows : emptyRow(5, 'service calls')}</tbody></table>`;
}

const ANSWERED_BY: Readonly<Record<AttemptView['diagnosis']['outcome'], string>> = {
  pending: 'in flight',
  delivered: 'delivered',
  duplicate: 'duplicate, answered by paymount',
  'refused-by-paymount': "refused by paymount's route",
  'refused-by-app': 'refused by your app before paymount ran',
  'no-answer': 'no answer',
};

/** An attempt; `sameAsBefore` when the one before failed for the same reason, whose fix is then not repeated. */
function attemptItem(attempt: AttemptView, sameAsBefore: boolean): Html {
  const { diagnosis } = attempt;
  const status = attempt.status === undefined ? (attempt.error === undefined ? 'waiting' : 'no answer') : `HTTP ${attempt.status}`;
  const explained = isFailure(diagnosis);
  const answer =
    attempt.answer === undefined
      ? undefined
      : html`<details><summary>Answer body (${attempt.answer.length} characters${attempt.answer.length > ANSWER_SHOWN_CHARS ? html`, first ${ANSWER_SHOWN_CHARS} shown` : undefined})</summary><pre>${attempt.answer.slice(0, ANSWER_SHOWN_CHARS)}</pre></details>`;
  return html`<li class="attempt" data-outcome="${diagnosis.outcome}"${attempt.errorCode ? html` data-error-code="${attempt.errorCode}"` : undefined}>
<strong>${status}</strong> ${badge(diagnosis.outcome === 'duplicate' ? 'delivered' : explained ? 'failed' : diagnosis.outcome, ANSWERED_BY[diagnosis.outcome])}
<span class="muted">at ${time(attempt.at)}${attempt.durationMs === undefined ? '' : `, ${attempt.durationMs} ms`}${
    attempt.retryInMs === undefined ? '' : `, retry in ${attempt.retryInMs} ms`
  }</span>
<p class="why">${diagnosis.why}</p>${
    diagnosis.fix && explained && !sameAsBefore
      ? html`<p class="fix"><strong>Fix:</strong> ${diagnosis.fix}${diagnosis.docs ? html` (<a href="${diagnosis.docs}">why a delivery failed</a>)` : undefined}</p>`
      : undefined
  }${answer}</li>`;
}

function deliveryArticle(delivery: DeliveryView, orderId: string | undefined): Html {
  return html`<article class="delivery" data-delivery-id="${delivery.deliveryId}" data-state="${delivery.state}">
<div class="delivery-head">${badge(delivery.state)} <strong>${delivery.event}</strong>${
    delivery.referenceOrderId === undefined ? undefined : html` <span>order <code>${delivery.referenceOrderId}</code></span>`
  } <span class="muted">to <code>${delivery.url}</code></span>${
    delivery.resentFrom ? html` <span class="muted">resend of <code>${delivery.resentFrom}</code></span>` : undefined
  }
<form method="post" action="/sandbox/dashboard/deliveries/${delivery.deliveryId}/resend">${keepFilter(orderId)}<button type="submit" class="secondary" aria-label="Resend delivery ${delivery.deliveryId}">Resend</button></form></div>
<p class="muted">Delivery <code>${delivery.deliveryId}</code>, ${delivery.attempts.length} attempt${delivery.attempts.length === 1 ? '' : 's'}</p>
<ol class="attempts">${delivery.attempts.map((attempt, i) => attemptItem(attempt, delivery.attempts[i - 1]?.diagnosis.why === attempt.diagnosis.why))}</ol></article>`;
}

function deliveriesSection(snapshot: DashboardSnapshot): Html {
  const items = snapshot.deliveries.map((delivery) => deliveryArticle(delivery, snapshot.orderId));
  return html`<h2>Webhook deliveries</h2>${items.length > 0 ? items : html`<p class="muted">No webhook deliveries yet.</p>`}`;
}

/** The live parts of the page, by the name of the element each replaces. */
export function renderSections(snapshot: DashboardSnapshot): Record<'calls' | 'sessions' | 'payments' | 'refunds' | 'deliveries', string> {
  return {
    calls: callsSection(snapshot).text,
    sessions: sessionsSection(snapshot).text,
    payments: paymentsSection(snapshot).text,
    refunds: refundsSection(snapshot).text,
    deliveries: deliveriesSection(snapshot).text,
  };
}

export interface DashboardPageOptions {
  /** The sandbox's base URL. */
  sandboxUrl: string;
  merchantId: string;
  /** What the last form post did, or why it was refused. */
  notice?: { text: string; error: boolean };
  /** The trigger form's default `forwardTo`: the last URL a delivery went to. */
  forwardTo?: string;
  /** The `ETag` of the sections, so the first poll knows the page is current. */
  version: string;
}

function triggerForm(snapshot: DashboardSnapshot, forwardTo: string | undefined): Html {
  const events = WEBHOOK_EVENTS.map((event) => html`<option value="${event}">${event}</option>`);
  return html`<form method="post" action="/sandbox/dashboard/trigger" id="trigger-form">${keepFilter(snapshot.orderId)}
<label>Event <select name="event" id="trigger-event">${events}</select></label>
<label>Send to (your webhook URL) <input name="forwardTo" id="trigger-forward-to" type="url" size="40" required value="${forwardTo ?? ''}" placeholder="http://localhost:3000/payments/webhook"></label>
<label>Order id (optional) <input name="referenceOrderId" id="trigger-order-id" value="${snapshot.orderId ?? ''}"></label>
<label>Amount, minor units (optional) <input name="amount" id="trigger-amount" inputmode="numeric" size="8"></label>
<button type="submit" id="trigger">Trigger event</button></form>`;
}

/** The whole dashboard page; the script then keeps its sections current. */
export function renderDashboardPage(snapshot: DashboardSnapshot, options: DashboardPageOptions): string {
  const sections = renderSections(snapshot);
  const live = (name: keyof typeof sections) => html`<section data-section="${name}" id="${name}">${new Html(sections[name])}</section>`;
  const notice = options.notice
    ? html`<p class="notice${options.notice.error ? ' error' : ''}" id="dashboard-notice" role="${options.notice.error ? 'alert' : 'status'}">${options.notice.text}</p>`
    : undefined;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>paymount sandbox dashboard</title><style>${new Html(STYLE)}</style>
<script src="/sandbox/dashboard/app.js" defer></script></head>
<body data-version="${options.version}">
<header class="top"><h1>paymount sandbox</h1><p>Service at <code>${options.sandboxUrl}</code>, merchant <code>${options.merchantId}</code></p>
<p>Service time <span id="service-time">${time(snapshot.now)}</span> UTC</p><p id="live" aria-live="polite">Live</p></header>
<main>${notice}
<section aria-labelledby="controls-title"><h2 id="controls-title">Filter and trigger</h2><div class="controls">
<form method="get" action="/sandbox/dashboard" role="search"><label>Order id <input name="orderId" id="filter-order-id" value="${snapshot.orderId ?? ''}"></label>
<button type="submit" id="filter">Filter</button>${snapshot.orderId === undefined ? undefined : html` <a href="/sandbox/dashboard">Show all orders</a>`}</form>
${triggerForm(snapshot, options.forwardTo)}</div></section>
${live('calls')}${live('deliveries')}${live('payments')}${live('sessions')}${live('refunds')}
</main></body></html>`.text;
}
