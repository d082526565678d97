import { expect, it } from 'vitest';
import { assertPackageExports } from '../../../tools/packaging';

it('the built package loads from require() and import with its public names', () => {
  expect(() =>
    assertPackageExports('@paymount/core', import.meta.dirname, [
      'PaymentError',
      'PaymentValidationError',
      'PaymentApiError',
      'PaymentRateLimitError',
      'PaymentNetworkError',
      'PaymentTimeoutError',
      'WebhookVerificationError',
      'createRedactingLogger',
      'PaymentResponseError',
      'createPaymentClient',
      'validate',
      'toMinorUnits',
      'fromMinorUnits',
      'currencyExponent',
      'paymentStatusOf',
      'isSessionExpired',
      'parseExpiresAt',
      'buildWalletPaymentRequest',
      'amountSchema',
      'productLineItemSchema',
      'checkoutSessionRequestSchema',
      'createCheckoutSessionRequestSchema',
      'directPaymentRequestSchema',
      'createDirectPaymentRequestSchema',
      'terminalSaleRequestSchema',
      'responseEnvelopeSchema',
      'paymentClientOptionsSchema',
      'isPublicHostname',
      'buildAuthHeaders',
    ]),
  ).not.toThrow();
});
