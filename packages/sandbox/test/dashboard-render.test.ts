import { describe, expect, it } from 'vitest';
import { renderDashboardPage, renderSections } from '../src/dashboard/render';
import type { DashboardSnapshot } from '../src/dashboard/snapshot';
import { diagnoseAttempt } from '../src/webhooks/diagnosis';

const HOSTILE = `"><script>alert(1)</script><img src=x onerror=alert(2)>'`;
const ESCAPED = '&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&#39;';
const at = '2026-05-01T10:00:00.000Z';

/** A snapshot in which every string a merchant, a shopper or a receiver chose is hostile. */
function hostileSnapshot(): DashboardSnapshot {
  const attempt = { at, status: 403, answer: HOSTILE, durationMs: 3 };
  return {
    orderId: HOSTILE,
    now: at,
    sessions: [
      { sessionId: HOSTILE, referenceOrderId: HOSTILE, description: HOSTILE, state: 'open', payableTotal: 1250, priceCurrency: 'USD', createdAt: at, expiresAt: at, closeReason: HOSTILE },
    ],
    charges: [
      {
        transactionId: HOSTILE,
        transactionRequestId: HOSTILE,
        referenceOrderId: HOSTILE,
        channel: 'direct',
        environment: 'test',
        amount: { orderAmount: 1250, taxAmount: 0, surchargeAmount: 0, priceCurrency: 'JPY' },
        payableTotal: 1250,
        transactionStatus: 'F',
        reason: { code: 'CARD_DECLINED', message: HOSTILE },
        description: HOSTILE,
        createdAt: at,
      },
    ],
    refunds: [
      {
        transactionId: HOSTILE,
        transactionRequestId: HOSTILE,
        originalTransactionId: HOSTILE,
        referenceOrderId: HOSTILE,
        environment: 'test',
        amount: { priceCurrency: 'USD', totalAmount: 100, orderAmount: 100, taxAmount: 0, surchargeAmount: 0, tipAmount: 0 },
        transactionStatus: 'S',
        createdAt: at,
      },
    ],
    deliveries: [
      {
        deliveryId: HOSTILE,
        url: `http://localhost:3000/${HOSTILE}`,
        event: 'payment.succeeded',
        payload: { referenceOrderId: HOSTILE },
        referenceOrderId: HOSTILE,
        state: 'failed',
        resentFrom: HOSTILE,
        attempts: [{ ...attempt, diagnosis: diagnoseAttempt(attempt, 'http://localhost:3000/w') }],
      },
    ],
    calls: [
      { at, method: HOSTILE, path: `/v1/${HOSTILE}`, status: 404, code: HOSTILE, traceId: HOSTILE, refused: true, message: HOSTILE, rule: HOSTILE, fix: HOSTILE },
    ],
  };
}

describe('dashboard rendering', () => {
  it('escapes every value in every section and on the page: no tag or attribute from the data survives', () => {
    const snapshot = hostileSnapshot();
    const sections = renderSections(snapshot);
    const page = renderDashboardPage(snapshot, { sandboxUrl: 'http://127.0.0.1:4010', merchantId: HOSTILE, version: '"v"', notice: { text: HOSTILE, error: true }, forwardTo: HOSTILE });
    for (const text of [...Object.values(sections), page]) {
      expect(text).not.toContain('<script>alert');
      expect(text).not.toContain('<img');
      expect(text).not.toContain('onerror=alert(2)>');
      expect(text).not.toContain(`'"><`);
    }
    expect(sections.sessions).toContain(ESCAPED);
    expect(sections.calls).toContain(`<p class="fix"><strong>Fix:</strong> ${ESCAPED}</p>`);
    expect(sections.deliveries).toContain(`<pre>${ESCAPED}</pre>`);
    expect(page).toContain(`value="${ESCAPED}"`);
    expect(page).toContain(`role="alert">${ESCAPED}</p>`);
  });

  it('shows amounts in the currency\'s own minor unit, and each failed attempt with why and the fix', () => {
    const sections = renderSections(hostileSnapshot());
    expect(sections.sessions).toContain('$12.50');
    expect(sections.payments).toContain('¥1,250');
    expect(sections.deliveries).toContain('your app answered 403 Forbidden before paymount&#39;s webhook route ran');
    expect(sections.deliveries).toContain('<strong>Fix:</strong> exempt the payment routes');
  });
});
