export { default as WalletButton } from './WalletButton.svelte';
export { followOrderStatus, startCheckout } from '@paymount/browser';
export type { CheckoutOptions, FollowedOrderStatus, FollowOrderStatusOptions, OrderStatus, RouteError, WalletFailed, WalletResult, WalletSource } from '@paymount/browser';
