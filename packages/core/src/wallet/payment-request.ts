import { fromMinorUnits } from '../money';
import { payableTotal } from '../schemas/amount';
import { validate } from '../validation';
import type { WalletPaymentRequestInput } from '../types/wallet-request';
import { walletPaymentRequestInputSchema } from './input-schema';

/** The service supports five card networks; these are the wallet API's codes for them. */
export const DEFAULT_CARD_NETWORKS = ['AMEX', 'DISCOVER', 'JCB', 'MASTERCARD', 'VISA'] as const;

export interface WalletPaymentRequest {
  apiVersion: 2;
  apiVersionMinor: 0;
  allowedPaymentMethods: Array<{
    type: 'CARD';
    parameters: {
      allowedAuthMethods: ['CRYPTOGRAM_3DS'];
      allowedCardNetworks: string[];
      billingAddressRequired: true;
      billingAddressParameters: { format: 'FULL' };
    };
    tokenizationSpecification: {
      type: 'PAYMENT_GATEWAY';
      parameters: { gateway: string; gatewayMerchantId: string };
    };
  }>;
  merchantInfo?: { merchantName: string };
  transactionInfo: { totalPriceStatus: 'FINAL'; totalPrice: string; currencyCode: string; countryCode?: string };
}

/**
 * The browser wallet's payment data request for an order. Only
 * `CRYPTOGRAM_3DS` is offered (the service refuses `PAN_ONLY`), the billing
 * address is requested because address verification is on by default, and
 * the total is the server-side order's payable total, written from minor units.
 */
export function buildWalletPaymentRequest(input: WalletPaymentRequestInput): WalletPaymentRequest {
  const { amount, gatewayId, merchantId, allowedCardNetworks, merchantName, countryCode } = validate(
    walletPaymentRequestInputSchema,
    input,
    'wallet payment request',
  );
  return {
    apiVersion: 2,
    apiVersionMinor: 0,
    allowedPaymentMethods: [
      {
        type: 'CARD',
        parameters: {
          allowedAuthMethods: ['CRYPTOGRAM_3DS'],
          allowedCardNetworks: allowedCardNetworks ?? [...DEFAULT_CARD_NETWORKS],
          billingAddressRequired: true,
          billingAddressParameters: { format: 'FULL' },
        },
        tokenizationSpecification: {
          type: 'PAYMENT_GATEWAY',
          parameters: { gateway: gatewayId, gatewayMerchantId: merchantId },
        },
      },
    ],
    ...(merchantName === undefined ? {} : { merchantInfo: { merchantName } }),
    transactionInfo: {
      totalPriceStatus: 'FINAL',
      totalPrice: fromMinorUnits(payableTotal(amount), amount.priceCurrency),
      currencyCode: amount.priceCurrency,
      ...(countryCode === undefined ? {} : { countryCode }),
    },
  };
}
