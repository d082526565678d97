// The Svelte side of @paymount/sveltekit, shipped as .svelte source under the `svelte` condition for the app's
// own compiler. It re-exports the rest of @paymount/browser, so a page imports one package.
export { default as WalletButton } from './WalletButton.svelte';
export { followOrderStatus, startCheckout } from '@paymount/browser';
export type { CheckoutOptions, FollowedOrderStatus, FollowOrderStatusOptions, OrderStatus, RouteError, WalletFailed, WalletResult, WalletSource } from '@paymount/browser';
