import { mountWalletButton, type WalletButton, type WalletSource } from '@paymount/browser';
import type { WalletButtonEventMap } from '@paymount/astro';

/**
 * `<paymount-wallet-button>`, the element WalletButton.astro renders: while it
 * is in the document, @paymount/browser's wallet button runs on the `<button>`
 * inside it, and what it reports is dispatched as events. A custom element, so
 * one script serves every button of a page, buttons a view transition swaps
 * in, and a button removed stops.
 */
class PaymountWalletButton extends HTMLElement {
  private button: WalletButton | undefined;

  connectedCallback(): void {
    const element = this.querySelector('button');
    const { mount, orderId, wallet } = this.dataset;
    if (!element || mount === undefined || orderId === undefined || wallet === undefined) return;
    const button = mountWalletButton(element, {
      mount,
      orderId,
      wallet: JSON.parse(wallet) as WalletSource,
      onResult: (result) => this.dispatch('paymount:wallet-result', result),
    });
    this.button = button;
    void button.ready.then((ready) => {
      // A button removed before it was ready is no one's news.
      if (this.button === button) this.dispatch('paymount:wallet-ready', ready);
    });
  }

  disconnectedCallback(): void {
    this.button?.unmount();
    this.button = undefined;
  }

  private dispatch<K extends keyof WalletButtonEventMap>(type: K, detail: WalletButtonEventMap[K]['detail']): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true }));
  }
}

// Several copies of the script on one page (two builds of a shop's islands) define it once.
if (!customElements.get('paymount-wallet-button')) customElements.define('paymount-wallet-button', PaymountWalletButton);
