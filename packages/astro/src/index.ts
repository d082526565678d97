export {
  paymentEndpoints,
  type PaymentEndpoints,
  type PaymentEndpointsOptions,
  type PaymentEndpointsOptionsFactory,
} from './payment-endpoints';
export type { WalletButtonEventMap } from './wallet-button-events';
// What the wallet button's events carry and its `wallet` prop takes, so a page imports one package.
export type { WalletFailed, WalletResult, WalletSource } from '@paymount/browser';
