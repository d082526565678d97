export { WalletButton } from './wallet-button';
export type { WalletButtonProps } from './wallet-button';
export type { WalletFailed, WalletResult, WalletSource } from '@paymount/browser';
