import {
  NexusClient,
  RelatedTransactionStatus,
  SunbayNetworkError,
  TransactionStatus,
  TransactionType,
} from '@sunbay/sunbay-nexus-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index';
import { uniqueId } from './helpers';

/**
 * The vendor's official Node SDK, unchanged, against the sandbox over real
 * HTTP: whatever it sends for these operations, the sandbox must take as the
 * service would. The SDK stamps X-Timestamp with Date.now(), so the sandbox
 * runs on real time here.
 */
let sandbox: Sandbox;
let sdk: NexusClient;
const lines: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox();
  const record = (message: string) => void lines.push(message);
  // maxRetries 1: the SDK retries a failed GET (whatever the failure) after 1 s, 2 s, ...
  sdk = new NexusClient({ apiKey: sandbox.testApiKey, baseUrl: sandbox.url, maxRetries: 1, logger: { debug: record, info: record, warn: record, error: record } });
});
afterAll(() => sandbox.close());

const ids = () => ({ appId: sandbox.appId, merchantId: sandbox.merchantId });

async function directPayment(orderAmount = 2500) {
  return sdk.checkoutDirectPayment({
    ...ids(),
    transactionRequestId: uniqueId('sdk'),
    referenceOrderId: uniqueId('order'),
    description: 'Two mugs',
    amount: { orderAmount, priceCurrency: 'USD' },
    paymentMethod: 'WALLET_PAY',
    cardEncryptedData: sandbox.mintWalletToken(),
  });
}

describe('@sunbay/sunbay-nexus-sdk against the sandbox', () => {
  it('createCheckoutSession: checkoutUrl, expiresAt and sessionId', async () => {
    const session = await sdk.createCheckoutSession({
      ...ids(),
      transactionRequestId: uniqueId('sdk'),
      referenceOrderId: uniqueId('order'),
      description: 'Two mugs',
      amount: { orderAmount: 2500, priceCurrency: 'USD' },
    });
    expect(session.code).toBe('0');
    expect(session.checkoutUrl).toMatch(new RegExp(`^${sandbox.url}/hosted/checkout/cs_`));
    expect(Date.parse(session.expiresAt ?? '')).toBeGreaterThan(Date.now());
    expect((session as unknown as { sessionId: string }).sessionId).toBe(session.checkoutUrl?.split('/').pop());
  });

  it('onlineRefund, partial then the rest, and query of the payment and of a refund', async () => {
    const payment = await directPayment();
    expect(payment.transactionId).toMatch(/^txn_/);

    const partialId = uniqueId('sdk_refund');
    const partial = await sdk.onlineRefund({
      ...ids(),
      transactionRequestId: partialId,
      originalTransactionId: payment.transactionId ?? '',
      amount: { priceCurrency: 'USD', orderAmount: 1000, totalAmount: 1000 },
      description: 'one mug broke',
    });
    expect(partial).toMatchObject({
      code: '0',
      transactionRequestId: partialId,
      originalTransactionId: payment.transactionId,
      transactionStatus: TransactionStatus.SUCCESS,
      transactionType: TransactionType.REFUND,
      amount: { priceCurrency: 'USD', totalAmount: 1000, orderAmount: 1000 },
      description: 'one mug broke',
    });
    expect(partial.transactionId).not.toBe(payment.transactionId);
    expect(Date.parse(partial.createTime ?? '')).not.toBeNaN();

    const queried = await sdk.query({ ...ids(), transactionId: payment.transactionId ?? '' });
    expect(queried).toMatchObject({
      code: '0',
      transactionId: payment.transactionId,
      referenceOrderId: payment.referenceOrderId,
      transactionStatus: TransactionStatus.SUCCESS,
      transactionType: TransactionType.SALE,
      relatedTransactionStatus: RelatedTransactionStatus.PART_REFUNDED,
      amount: { orderAmount: 2500, priceCurrency: 'USD' },
    });

    const rest = await sdk.onlineRefund({
      ...ids(),
      transactionRequestId: uniqueId('sdk_refund'),
      originalTransactionRequestId: payment.transactionRequestId ?? '',
    });
    expect(rest).toMatchObject({ transactionStatus: TransactionStatus.SUCCESS, amount: { totalAmount: 1500 } });
    expect((await sdk.query({ ...ids(), transactionId: payment.transactionId ?? '' })).relatedTransactionStatus).toBe(RelatedTransactionStatus.REFUNDED);

    const refund = await sdk.query({ ...ids(), transactionRequestId: partialId });
    expect(refund).toMatchObject({ transactionId: partial.transactionId, transactionType: TransactionType.REFUND, transactionStatus: TransactionStatus.SUCCESS });
  });

  it('onlineRefund of the sandbox refund amount 8888 answers F', async () => {
    const payment = await directPayment(10_000);
    const declined = await sdk.onlineRefund({
      ...ids(),
      transactionRequestId: uniqueId('sdk_refund'),
      originalTransactionId: payment.transactionId ?? '',
      amount: { priceCurrency: 'USD', orderAmount: 8888 },
    });
    expect(declined).toMatchObject({ code: '0', transactionStatus: TransactionStatus.FAIL, transactionResultCode: 'REFUND_DECLINED' });
  });

  it('expireCheckoutSession: EXPIRED, the same answer again, and the query says closed', async () => {
    const transactionRequestId = uniqueId('sdk');
    const session = await sdk.createCheckoutSession({
      ...ids(),
      transactionRequestId,
      referenceOrderId: uniqueId('order'),
      description: 'Two mugs',
      amount: { orderAmount: 2500, priceCurrency: 'USD' },
    });
    const sessionId = (session as unknown as { sessionId: string }).sessionId;
    const expired = await sdk.expireCheckoutSession({ ...ids(), sessionId, reason: 'abandoned' });
    expect(expired).toMatchObject({ code: '0', sessionId, sessionStatus: 'EXPIRED', transactionRequestId });
    expect(Date.parse(expired.expiredAt ?? '')).not.toBeNaN();
    const again = await sdk.expireCheckoutSession({ ...ids(), sessionId });
    expect(again.expiredAt).toBe(expired.expiredAt);
    const queried = await sdk.query({ ...ids(), transactionRequestId });
    expect(queried).toMatchObject({ transactionId: expired.transactionId, transactionStatus: TransactionStatus.CLOSED, transactionType: TransactionType.SALE });
  });

  it('a refused call reaches the SDK with the sandbox code (as an HTTP error: the sandbox answers refusals with a 4xx status)', async () => {
    const unknown = await sdk.query({ ...ids(), transactionId: 'txn_unknown' }).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(SunbayNetworkError);
    expect(String((unknown as Error).message)).toMatch(/HTTP 404.*"code":"T01"/);
    const session = await sdk.expireCheckoutSession({ ...ids(), sessionId: 'cs_unknown' }).catch((error: unknown) => error);
    expect(String((session as Error).message)).toMatch(/HTTP 404.*"code":"H01"/);
  });

  it('the SDK’s logs never carry the whole API key', () => {
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(sandbox.testApiKey);
  });
});
