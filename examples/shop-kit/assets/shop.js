/* global google */
// The shop's browser side. The wallet token goes from the wallet straight into
// the POST to the shop's own server: it is never logged, stored or put in a URL.
(() => {
  const body = document.body;
  const mount = body.dataset.mount;

  async function errorMessage(response) {
    try {
      const answer = await response.json();
      if (answer && answer.error && answer.error.message) return answer.error.message;
    } catch {
      // Not JSON: fall back to the status line below.
    }
    return `The shop answered ${response.status}.`;
  }

  async function getJson(url, init) {
    const response = await fetch(url, { ...init, headers: { accept: 'application/json', ...(init && init.headers) } });
    if (!response.ok) throw new Error(await errorMessage(response));
    return response.json();
  }

  /** The sandbox's test wallet, or the real wallet client library when the shop talks to the real service. */
  function walletClient() {
    if (body.dataset.wallet === 'sandbox') return window.PaymountTestWallet;
    return new google.payments.api.PaymentsClient({ environment: body.dataset.walletEnvironment });
  }

  // The wallet request is fetched before the click: a wallet opens its payment
  // sheet only while the click's user activation lasts, so nothing slow may
  // come between the click and loadPaymentData.
  async function setupWalletButton(button) {
    const message = document.getElementById('wallet-message');
    const say = (text) => {
      if (message) message.textContent = text;
    };
    const orderId = button.dataset.orderId;
    let wallet;
    let request;
    try {
      wallet = walletClient();
      if (!wallet) throw new Error('no wallet');
      request = await getJson(`${mount}/wallet/config?orderId=${encodeURIComponent(orderId)}`);
    } catch {
      say('The wallet is not available in this browser.');
      return;
    }
    button.disabled = false;
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        const answer = await wallet.loadPaymentData(request);
        say('Paying…');
        await getJson(`${mount}/wallet/pay`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ orderId, token: answer.paymentMethodData.tokenizationData.token }),
        });
        location.assign(`/orders/${encodeURIComponent(orderId)}`);
      } catch (error) {
        // Wallet errors carry statusCode/statusMessage; the shop's own carry a message.
        const closed = error && error.statusCode === 'CANCELED';
        const reason = (error && (error.statusMessage || error.message)) || 'unknown error';
        say(closed ? 'The wallet was closed; nothing was charged.' : `The payment did not go through: ${reason}`);
        button.disabled = false;
      }
    });
  }

  // The customer's own navigation (a link followed, a form sent) must not be
  // cancelled by a reload the poll below starts while the next page loads:
  // on a slow server the reload came later and won.
  let leaving = false;
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    // Not a link that opens elsewhere (a new tab) or moves within this page.
    if (!link || link.target || event.ctrlKey || event.metaKey || event.shiftKey || link.getAttribute('href').startsWith('#')) return;
    leaving = true;
  }, true);
  document.addEventListener('submit', () => {
    leaving = true;
  }, true);

  // The server-side order changes on its own (a webhook, a reconciliation):
  // a page showing something that can still change polls `url` and reloads
  // once `changed(answer)` says the page is stale. Bounded: a page left open
  // stops asking after about fifteen minutes.
  function follow(url, changed) {
    let remaining = 900;
    const poll = async () => {
      if (leaving) return;
      remaining -= 1;
      try {
        if (changed(await getJson(url)) && !leaving) return location.reload();
      } catch {
        // A missed poll is retried on the next tick.
      }
      if (remaining > 0) setTimeout(poll, 1000);
    };
    setTimeout(poll, 1000);
  }

  // The payment routes' GET /status: once the shop's handler has recorded a
  // payment the order is no longer payable; a failure the page does not show
  // yet is shown once the shop has it.
  function watchPayment(watch) {
    const shown = watch.dataset.status;
    follow(watch.dataset.url, (state) => !state.payable || (state.status === 'failed' && shown !== 'failed'));
  }

  // The back office's refunds awaiting their webhook.
  function watchRefunds(watch) {
    const shown = Number(watch.dataset.awaiting);
    follow(watch.dataset.url, (state) => state.awaiting !== shown);
  }

  // A page answered to a back-office form post shows its own address, so a reload never posts again.
  const canonical = body.dataset.canonical;
  if (canonical && location.pathname !== canonical) history.replaceState(null, '', canonical);
  const button = document.getElementById('wallet-pay');
  if (button) setupWalletButton(button);
  const payment = document.getElementById('payment-watch');
  if (payment) watchPayment(payment);
  const refunds = document.getElementById('refund-watch');
  if (refunds) watchRefunds(refunds);
})();
