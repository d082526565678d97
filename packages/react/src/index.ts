export { WalletButton } from './wallet-button';
export type { WalletButtonProps } from './wallet-button';
// The rest of the browser side, so a React app installs and imports one package.
export { followOrderStatus, startCheckout } from '@paymount/browser';
export type { CheckoutOptions, FollowedOrderStatus, FollowOrderStatusOptions, OrderStatus, WalletFailed, WalletResult, WalletSource } from '@paymount/browser';
