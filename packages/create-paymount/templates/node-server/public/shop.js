// The order page's browser side, over @paymount/browser: the wallet button and the payment followed
// until the webhook settles it. The page says which order; the amount is the server's. The wallet's
// token goes from the wallet straight into the POST to the shop's own routes.
import { followOrderStatus, mountWalletButton } from '/assets/paymount-browser.js';

const { orderId, mount, sandboxUrl, walletEnvironment, walletScript } = document.body.dataset;
const message = document.getElementById('payment-message');
const say = (text) => {
  if (message) message.textContent = text;
};

const button = document.getElementById('wallet-pay');
if (orderId && mount && button) {
  const { ready } = mountWalletButton(button, {
    mount,
    orderId,
    wallet: sandboxUrl ? { sandbox: sandboxUrl } : { environment: walletEnvironment, scriptUrl: walletScript },
    onResult(result) {
      if (result.outcome === 'declined') say('The payment was declined; nothing was charged. You can try again.');
      else if (result.outcome === 'closed') say('The wallet was closed; nothing was charged.');
      else if (result.outcome === 'failed') say(`The payment did not go through: ${result.error.message}`);
      else say('Payment sent; waiting for the confirmation…');
    },
  });
  ready.then((answer) => {
    if (answer !== true) say('The wallet is not available in this browser.');
  });

  // The order is paid when the shop's webhook handler says so: reload then, to show it.
  const shown = document.getElementById('status')?.dataset.status;
  followOrderStatus({ mount, orderId, until: (state) => !state.payable || (state.status === 'failed' && shown !== 'failed') }).done.then((state) => {
    if (state) location.reload();
  });
}
