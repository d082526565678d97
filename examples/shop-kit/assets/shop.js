// The shop's browser side. The wallet button and the order's status are
// @paymount/browser's (served at /assets/paymount-browser.js): the wallet token
// goes from the wallet straight into the POST to the shop's own server, never
// logged, stored or put in a URL.
(() => {
  const body = document.body;
  const mount = body.dataset.mount;

  async function getJson(url) {
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`The shop answered ${response.status}.`);
    return response.json();
  }

  /** The sandbox's test wallet, or the real wallet client library when the shop talks to the real service. */
  function walletSource() {
    const script = body.dataset.walletScript;
    // The sandbox serves its test wallet at <sandbox>/sandbox/test-wallet.js.
    if (body.dataset.wallet === 'sandbox') return { sandbox: new URL(script).origin };
    return { environment: body.dataset.walletEnvironment, scriptUrl: script };
  }

  // @paymount/browser fetches the wallet request before the click and opens
  // the wallet inside it; the token goes from the wallet straight into its
  // POST to the shop's own server.
  function setupWalletButton(paymount, button) {
    const message = document.getElementById('wallet-message');
    const say = (text) => {
      if (message) message.textContent = text;
    };
    const orderId = button.dataset.orderId;
    const { ready } = paymount.mountWalletButton(button, {
      mount,
      orderId,
      wallet: walletSource(),
      onResult(result) {
        // Paid, pending or declined: the order page shows what the shop recorded.
        if (result.outcome === 'paid' || result.outcome === 'pending' || result.outcome === 'declined') {
          location.assign(`/orders/${encodeURIComponent(orderId)}`);
        } else if (result.outcome === 'closed') {
          say('The wallet was closed; nothing was charged.');
        } else {
          say(`The payment did not go through: ${result.error.message}`);
        }
      },
    });
    ready.then((answer) => {
      if (answer !== true) say('The wallet is not available in this browser.');
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

  // The back office's refunds change on their own (a refund's webhook): the
  // page polls `url` and reloads once `changed(answer)` says it is stale.
  // Bounded: a page left open stops asking after about fifteen minutes.
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

  // The payment routes' GET /status, followed by @paymount/browser: once the
  // shop's handler has recorded a payment the order is no longer payable; a
  // failure the page does not show yet is shown once the shop has it.
  function watchPayment(paymount, watch) {
    const shown = watch.dataset.status;
    const followed = paymount.followOrderStatus({
      mount,
      orderId: watch.dataset.orderId,
      until: (state) => !state.payable || (state.status === 'failed' && shown !== 'failed'),
    });
    followed.done.then((state) => {
      if (state && !leaving) location.reload();
    });
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
  const payment = document.getElementById('payment-watch');
  if (button || payment) {
    // A module, loaded from this classic script: the page's other parts need none of it.
    import('/assets/paymount-browser.js').then((paymount) => {
      if (button) setupWalletButton(paymount, button);
      if (payment) watchPayment(paymount, payment);
    });
  }
  const refunds = document.getElementById('refund-watch');
  if (refunds) watchRefunds(refunds);
})();
