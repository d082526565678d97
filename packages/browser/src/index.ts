export { mountWalletButton } from './wallet-button';
export type { WalletButton, WalletButtonElement, WalletButtonOptions, WalletFailed, WalletResult } from './wallet-button';
export { WALLET_SCRIPT_URL, walletIdentity } from './wallet-client';
export type { WalletClient, WalletPaymentData, WalletSource } from './wallet-client';
export { startCheckout } from './checkout';
export type { CheckoutOptions } from './checkout';
export { followOrderStatus } from './order-status';
export type { FollowedOrderStatus, FollowOrderStatusOptions, OrderStatus } from './order-status';
export type { RouteError } from './route-call';
