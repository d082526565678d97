// Lists every event of the page's wallet buttons, as the test reads them, and removes the first button on request.
import type {} from '@paymount/astro';

const output = document.querySelector('#events');
const seen: unknown[] = [];
const record = (type: string, detail: unknown) => {
  seen.push({ type, detail });
  if (output) output.textContent = JSON.stringify(seen);
};
document.addEventListener('paymount:wallet-ready', (event) => record(event.type, event.detail));
document.addEventListener('paymount:wallet-result', (event) => record(event.type, event.detail));
document.querySelector('#remove-first')?.addEventListener('click', () => document.querySelector('paymount-wallet-button')?.remove());
