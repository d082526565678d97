import { describe, expect, it } from 'vitest';
import { escapeHtml, html } from '../src/html';

describe('html', () => {
  it('escapes interpolated text, including quotes for attribute values', () => {
    expect(html`<p title="${'"x" & <y>'}">${"<script>alert('x')</script>"}</p>`.value).toBe(
      '<p title="&quot;x&quot; &amp; &lt;y&gt;">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</p>',
    );
  });

  it('keeps nested markup, joins lists and drops empty values', () => {
    const items = ['a<', 'b'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${undefined}${false}${null}${0}`.value).toBe('<ul><li>a&lt;</li><li>b</li></ul>0');
  });

  it('escapeHtml leaves ordinary text alone', () => {
    expect(escapeHtml('Order ord_123 — 12.50 USD')).toBe('Order ord_123 — 12.50 USD');
  });
});
