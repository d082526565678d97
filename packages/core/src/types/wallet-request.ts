import type { Amount } from './amount';

/** What `buildWalletPaymentRequest` needs to write the browser wallet's payment data request. */
export type WalletPaymentRequestInput = {
  /** The server-side order's amount, in integer minor units. */
  amount: Amount;
  /** The gateway identifier the service was assigned by the wallet provider: not empty. */
  gatewayId: string;
  /** 1–32 characters. */
  merchantId: string;
  /** Upper-case wallet network codes such as `"VISA"`, at least one. Default: AMEX, DISCOVER, JCB, MASTERCARD, VISA. */
  allowedCardNetworks?: string[] | undefined;
  /** Shown by the wallet: not empty. */
  merchantName?: string | undefined;
  /** An ISO 3166-1 alpha-2 code in upper case, e.g. `"US"`. */
  countryCode?: string | undefined;
};
