// The order page's browser side: what the wallet button reports, and the payment followed until the
// webhook settles it. The page says which order; the amount is the server's.
import { followOrderStatus } from '@paymount/browser';
import type { WalletResult } from '@paymount/astro';

const message = document.getElementById('payment-message');
const say = (text: string) => {
  if (message) message.textContent = text;
};

function describe(result: WalletResult): string {
  if (result.outcome === 'declined') return 'The payment was declined; nothing was charged. You can try again.';
  if (result.outcome === 'closed') return 'The wallet was closed; nothing was charged.';
  if (result.outcome === 'failed') return `The payment did not go through: ${result.error.message}`;
  return 'Payment sent; waiting for the confirmation…';
}

document.addEventListener('paymount:wallet-result', (event) => say(describe(event.detail)));
document.addEventListener('paymount:wallet-ready', (event) => {
  if (event.detail !== true) say('The wallet is not available in this browser.');
});

// The order is paid when the shop's webhook handler says so: reload then, to show it.
const { mount, orderId, status: shown } = message?.dataset ?? {};
if (mount && orderId) {
  void followOrderStatus({ mount, orderId, until: (state) => !state.payable || (state.status === 'failed' && shown !== 'failed') }).done.then((state) => {
    if (state) location.reload();
  });
}
