import { describe, expect, it } from 'vitest';
import { renderCheckoutPage, renderNoticePage } from '../src/hosted-page/render';
import type { CheckoutSessionRecord } from '../src/sessions';

const HOSTILE = `"><script>alert(1)</script>'`;

function session(overrides: Partial<CheckoutSessionRecord['request']> = {}): CheckoutSessionRecord {
  return {
    sessionId: 'cs_render',
    environment: 'test',
    createdAt: Date.UTC(2026, 4, 1, 10, 0),
    expiresAt: Date.UTC(2026, 4, 1, 10, 30),
    state: 'open',
    transactionId: 'tx_render',
    request: {
      appId: 'app',
      merchantId: 'm',
      transactionRequestId: 'tr_render',
      referenceOrderId: 'order-render',
      description: 'Two mugs and a notebook',
      amount: { orderAmount: 3800, taxAmount: 304, surchargeAmount: 150, priceCurrency: 'USD' },
      productList: [
        { name: 'Mug', amount: 1250, num: 2 },
        { name: 'Notebook', amount: 1300, num: 1 },
      ],
      merchantReturnUrl: 'https://shop.example/return',
      ...overrides,
    },
  };
}

describe('hosted checkout page rendering', () => {
  it('summarises the order: line items with unit prices, subtotal, tax, surcharge and the payable total', () => {
    const page = renderCheckoutPage(session(), { merchantName: 'Mug Shop' });
    expect(page).toContain('<th scope="row">Mug × 2<span class="each">$12.50 each</span></th><td class="num">$25.00</td>');
    expect(page).toContain('<th scope="row">Notebook × 1</th><td class="num">$13.00</td>');
    expect(page).toContain('id="subtotal">$38.00<');
    expect(page).toContain('<th scope="row">Tax</th><td class="num">$3.04</td>');
    expect(page).toContain('<th scope="row">Surcharge</th><td class="num">$1.50</td>');
    expect(page).toMatch(/id="total">\$42\.54</);
    expect(page).toContain('<h1>Pay Mug Shop</h1>');
    expect(page).toContain('Cancel and return to Mug Shop');
    expect(page).toContain('expires at 10:30 UTC');
  });

  it('without line items the description is the one line; no tax or surcharge row when they are 0; zero-decimal currencies', () => {
    const page = renderCheckoutPage(session({ productList: undefined, amount: { orderAmount: 1500, priceCurrency: 'JPY' }, merchantReturnUrl: undefined }), {
      merchantName: 'Shop',
    });
    expect(page).toContain('<th scope="row">Two mugs and a notebook</th><td class="num">¥1,500</td>');
    expect(page).not.toContain('>Tax<');
    expect(page).not.toContain('>Surcharge<');
    expect(page).toMatch(/id="total">¥1,500</);
    expect(page).toContain('>Cancel payment</button>');
  });

  it('escapes the merchant name, the description, the items, the refused form values and the return URL', () => {
    const page = renderCheckoutPage(session({ description: HOSTILE, productList: [{ name: HOSTILE, amount: 3800, num: 1 }], collectBillingAddress: true }), {
      merchantName: HOSTILE,
      error: HOSTILE,
      values: { billing_name: HOSTILE },
    });
    const notice = renderNoticePage({ kind: 'paid', title: HOSTILE, message: HOSTILE, merchantName: HOSTILE, returnUrl: `https://shop.example/?q=${HOSTILE}` });
    for (const text of [page, notice]) {
      expect(text).not.toContain('<script>alert');
      expect(text).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&#39;');
    }
  });

  it('shows each finished state with its own title, message and way back to the shop', () => {
    const expired = renderNoticePage({ kind: 'expired', title: 'Checkout expired', message: 'It expired.', merchantName: 'Shop', returnUrl: 'https://shop.example/r' });
    expect(expired).toContain('data-state="expired"');
    expect(expired).toContain('<h1>Checkout expired</h1><p class="notice" id="notice">It expired.</p>');
    expect(expired).toContain('<a class="button" href="https://shop.example/r" id="return">Return to Shop</a>');
    expect(renderNoticePage({ kind: 'missing', title: 'Checkout not found', message: 'No.', merchantName: 'Shop' })).not.toContain('id="return"');
  });
});
