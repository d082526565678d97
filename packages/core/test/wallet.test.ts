import { describe, expect, it } from 'vitest';
import { buildWalletPaymentRequest, PaymentValidationError } from '../src';
import { DEFAULT_CARD_NETWORKS } from '../src/entries/internal';

describe('buildWalletPaymentRequest', () => {
  it('builds a PAYMENT_GATEWAY, CRYPTOGRAM_3DS-only request with billing address and the payable total', () => {
    const request = buildWalletPaymentRequest({
      amount: { orderAmount: 2500, taxAmount: 200, surchargeAmount: 34, priceCurrency: 'USD' },
      gatewayId: 'examplegateway',
      merchantId: 'merchant_456',
      merchantName: 'Mug Shop',
      countryCode: 'US',
    });
    expect(request).toEqual({
      apiVersion: 2,
      apiVersionMinor: 0,
      allowedPaymentMethods: [
        {
          type: 'CARD',
          parameters: {
            allowedAuthMethods: ['CRYPTOGRAM_3DS'],
            allowedCardNetworks: [...DEFAULT_CARD_NETWORKS],
            billingAddressRequired: true,
            billingAddressParameters: { format: 'FULL' },
          },
          tokenizationSpecification: {
            type: 'PAYMENT_GATEWAY',
            parameters: { gateway: 'examplegateway', gatewayMerchantId: 'merchant_456' },
          },
        },
      ],
      merchantInfo: { merchantName: 'Mug Shop' },
      transactionInfo: { totalPriceStatus: 'FINAL', totalPrice: '27.34', currencyCode: 'USD', countryCode: 'US' },
    });
    expect(DEFAULT_CARD_NETWORKS).toHaveLength(5);
  });

  it('uses the configured networks and the currency exponent for the total', () => {
    const request = buildWalletPaymentRequest({
      amount: { orderAmount: 500, priceCurrency: 'JPY' },
      gatewayId: 'gw',
      merchantId: 'm1',
      allowedCardNetworks: ['VISA', 'JCB'],
    });
    expect(request.allowedPaymentMethods[0]?.parameters.allowedCardNetworks).toEqual(['VISA', 'JCB']);
    expect(request.transactionInfo).toEqual({ totalPriceStatus: 'FINAL', totalPrice: '500', currencyCode: 'JPY' });
    expect(request.merchantInfo).toBeUndefined();
  });

  it('refuses invalid input with every issue', () => {
    try {
      buildWalletPaymentRequest({
        amount: { orderAmount: 12.5, priceCurrency: 'USD' },
        gatewayId: '',
        merchantId: 'm1',
        allowedCardNetworks: [],
        countryCode: 'usa',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PaymentValidationError);
      expect((error as PaymentValidationError).issues.map((i) => `${i.path}:${i.rule}`)).toEqual([
        'amount.orderAmount:integer_minor_units',
        'gatewayId:min_length',
        'allowedCardNetworks:min_items',
        'countryCode:pattern',
      ]);
    }
  });
});
