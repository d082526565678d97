import type { WalletFailed, WalletResult } from '@paymount/browser';

/**
 * The events `WalletButton.astro` dispatches on its `<paymount-wallet-button>`
 * element: an Astro component renders HTML, so it has no callbacks. They
 * bubble, so `document` hears every button of the page; `detail.orderId`
 * says whose.
 */
export interface WalletButtonEventMap {
  /** The button can be clicked (`true`), or the failure that keeps it disabled. */
  'paymount:wallet-ready': CustomEvent<true | WalletFailed>;
  /** How one click ended: paid, pending, declined (with the service's reason), closed, or failed. */
  'paymount:wallet-result': CustomEvent<WalletResult>;
}

// So `addEventListener('paymount:wallet-result', (event) => event.detail.outcome)` is typed on the element and on document.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the merge is the point: the map gains the events
  interface HTMLElementEventMap extends WalletButtonEventMap {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- as above
  interface DocumentEventMap extends WalletButtonEventMap {}
}
