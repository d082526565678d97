import type { CheckoutSessionInput, DirectPaymentInput, PaymentClientOptions, RefundInput } from '../../src';

export const API_KEY = 'sk_test_4f9c2b7e1a8d6c3f5e0b9a7d2c4e6f81';
/** A wallet token as the wallet API returns it: a JSON document in a string. */
export const WALLET_TOKEN = JSON.stringify({
  signature: 'MEUCIQDwalletSignatureValue0123456789',
  protocolVersion: 'ECv2',
  signedMessage: '{"encryptedMessage":"c2VjcmV0LWNhcmQtY3J5cHRvZ3JhbQ","ephemeralPublicKey":"BPubKey"}',
});

/**
 * An attempt's time limit in a test that scripts a hung attempt beside others that must be answered (or reach the
 * service) in time: a busy machine may take 2 s to answer a local request.
 */
export const ATTEMPT_TIMEOUT_MS = 2_000;

export function clientOptions(baseUrl: string, overrides: Partial<PaymentClientOptions> = {}): PaymentClientOptions {
  return {
    apiKey: API_KEY,
    baseUrl,
    appId: 'app_123',
    merchantId: 'merchant_456',
    localDevelopment: true,
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    // Tests that read log lines pass their own logger; the rest keep the console quiet.
    logger: false,
    ...overrides,
  };
}

export function checkoutInput(overrides: Partial<CheckoutSessionInput> = {}): CheckoutSessionInput {
  return {
    referenceOrderId: 'order-1001',
    amount: { orderAmount: 2500, taxAmount: 200, priceCurrency: 'USD' },
    description: 'Two mugs',
    productList: [{ name: 'Mug', amount: 1250, num: 2 }],
    notifyUrl: 'https://shop.example.com/payments/webhook',
    merchantReturnUrl: 'https://shop.example.com/orders/1001',
    ...overrides,
  };
}

export function directPaymentInput(overrides: Partial<DirectPaymentInput> = {}): DirectPaymentInput {
  return {
    referenceOrderId: 'order-2002',
    amount: { orderAmount: 1999, priceCurrency: 'USD' },
    description: 'A teapot',
    cardEncryptedData: WALLET_TOKEN,
    notifyUrl: 'https://shop.example.com/payments/webhook',
    ...overrides,
  };
}

export function refundInput(overrides: Partial<RefundInput> = {}): RefundInput {
  return {
    originalTransactionId: 'txn_paid_0001',
    amount: { priceCurrency: 'USD', orderAmount: 500 },
    description: 'One mug returned',
    notifyUrl: 'https://shop.example.com/payments/webhook',
    ...overrides,
  } as RefundInput;
}

/** A refund answer as the vendor's contract has it. */
export function refundData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    transactionId: 'txn_refund_0001',
    transactionRequestId: 'ignored-echo',
    originalTransactionId: 'txn_paid_0001',
    transactionStatus: 'S',
    transactionType: 'REFUND',
    amount: { priceCurrency: 'USD', orderAmount: 500, totalAmount: 500 },
    createTime: '2030-01-01T10:00:00+08:00',
    completeTime: '2030-01-01T10:00:01+08:00',
    ...overrides,
  };
}
