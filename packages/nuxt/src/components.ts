export { WalletButton } from './wallet-button';
// The rest of the browser side, so a Nuxt page imports one package.
export { followOrderStatus, startCheckout } from '@paymount/browser';
export type { CheckoutOptions, FollowedOrderStatus, FollowOrderStatusOptions, OrderStatus, WalletFailed, WalletResult, WalletSource } from '@paymount/browser';
