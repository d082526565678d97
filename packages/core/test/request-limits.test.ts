import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPaymentClient, PaymentValidationError, signWebhookAsync, verifyWebhook, WebhookVerificationError, type PaymentClient } from '../src';
import { clientRequestIdRules as clientRequestId, fieldRules as fields } from '../src/entries/internal';
import { checkoutInput, clientOptions, directPaymentInput, refundData, refundInput } from './support/fixtures';
import { ok, startServiceServer, type ServiceServer } from './support/service-server';

/*
 * Every limit of schemas/fields.ts, held to the service's contract
 * (docs/service-contract.md#fields-and-rules and #limits) through the real
 * client: a body at the contract's bound goes out, one past it is refused
 * before anything is sent. The bounds below are the contract's, not read from
 * the schemas, so tightening (or loosening) any single limit fails its row;
 * and the table must name every limit fields.ts exports, so a new one cannot
 * go untested. The limits written beside a field that only one request has
 * are held the same way.
 */

type Send = (client: PaymentClient, value: string) => Promise<unknown>;

/** Sends `field` set to the value, in the body `call` builds around it. */
const sending =
  (call: (client: PaymentClient, field: Record<string, string>) => Promise<unknown>) =>
  (field: string): Send =>
  (client, value) =>
    call(client, { [field]: value });
const inCheckout = sending((client, field) => client.createCheckoutSession(checkoutInput(field)));
const inRefund = sending((client, field) => client.refund(refundInput(field)));
const inDirectPayment = sending((client, field) => client.directPayment(directPaymentInput(field)));
const inBillingAddress = sending((client, field) => client.directPayment(directPaymentInput({ billingAddress: field })));
const inExpireSession = sending((client, field) => client.expireCheckoutSession({ sessionId: 'sess_1', ...field }));

const text = (length: number) => 'a'.repeat(length);
const email = (length: number) => text(length - '@shop.example.com'.length) + '@shop.example.com';
const url = (length: number) => {
  const origin = 'https://shop.example.com/';
  return origin + text(length - origin.length);
};

interface Limit {
  /** `<export>.min` / `<export>.max` of a string schema of fields.ts, the name of one of its length constants, or a request and field. */
  limit: string;
  bound: 'min' | 'max';
  /** The contract's value. */
  contract: number;
  field: string;
  send: Send;
  value?: (length: number) => string;
}

const LIMITS: readonly Limit[] = [
  { limit: 'appIdSchema.min', bound: 'min', contract: 1, field: 'appId', send: inCheckout('appId') },
  { limit: 'appIdSchema.max', bound: 'max', contract: 32, field: 'appId', send: inCheckout('appId') },
  { limit: 'merchantIdSchema.min', bound: 'min', contract: 1, field: 'merchantId', send: inCheckout('merchantId') },
  { limit: 'merchantIdSchema.max', bound: 'max', contract: 32, field: 'merchantId', send: inCheckout('merchantId') },
  { limit: 'transactionRequestIdSchema.min', bound: 'min', contract: 1, field: 'transactionRequestId', send: inCheckout('transactionRequestId') },
  { limit: 'transactionRequestIdSchema.max', bound: 'max', contract: 32, field: 'transactionRequestId', send: inCheckout('transactionRequestId') },
  { limit: 'longTransactionRequestIdSchema.min', bound: 'min', contract: 1, field: 'transactionRequestId', send: inRefund('transactionRequestId') },
  { limit: 'longTransactionRequestIdSchema.max', bound: 'max', contract: 64, field: 'transactionRequestId', send: inRefund('transactionRequestId') },
  { limit: 'transactionIdSchema.min', bound: 'min', contract: 1, field: 'originalTransactionId', send: inRefund('originalTransactionId') },
  { limit: 'transactionIdSchema.max', bound: 'max', contract: 64, field: 'originalTransactionId', send: inRefund('originalTransactionId') },
  { limit: 'referenceOrderIdSchema.min', bound: 'min', contract: 6, field: 'referenceOrderId', send: inCheckout('referenceOrderId') },
  { limit: 'referenceOrderIdSchema.max', bound: 'max', contract: 32, field: 'referenceOrderId', send: inCheckout('referenceOrderId') },
  { limit: 'descriptionSchema.min', bound: 'min', contract: 1, field: 'description', send: inCheckout('description') },
  { limit: 'descriptionSchema.max', bound: 'max', contract: 128, field: 'description', send: inCheckout('description') },
  { limit: 'NOTIFY_URL_MAX', bound: 'max', contract: 200, field: 'notifyUrl', send: inCheckout('notifyUrl'), value: url },
  { limit: 'MERCHANT_RETURN_URL_MAX', bound: 'max', contract: 256, field: 'merchantReturnUrl', send: inCheckout('merchantReturnUrl'), value: url },
  // Written beside a field that only one request has.
  { limit: 'refund attach.max', bound: 'max', contract: 512, field: 'attach', send: inRefund('attach') },
  { limit: 'direct payment cardEncryptedData.min', bound: 'min', contract: 1, field: 'cardEncryptedData', send: inDirectPayment('cardEncryptedData') },
  { limit: 'direct payment cardEncryptedData.max', bound: 'max', contract: 65_536, field: 'cardEncryptedData', send: inDirectPayment('cardEncryptedData') },
  { limit: 'direct payment customerEmail.max', bound: 'max', contract: 254, field: 'customerEmail', send: inDirectPayment('customerEmail'), value: email },
  { limit: 'direct payment customerName.min', bound: 'min', contract: 1, field: 'customerName', send: inDirectPayment('customerName') },
  { limit: 'direct payment customerName.max', bound: 'max', contract: 128, field: 'customerName', send: inDirectPayment('customerName') },
  { limit: 'address line1.max', bound: 'max', contract: 128, field: 'billingAddress.line1', send: inBillingAddress('line1') },
  { limit: 'address city.max', bound: 'max', contract: 64, field: 'billingAddress.city', send: inBillingAddress('city') },
  { limit: 'address postalCode.max', bound: 'max', contract: 16, field: 'billingAddress.postalCode', send: inBillingAddress('postalCode') },
  { limit: 'expire-session sessionId.min', bound: 'min', contract: 1, field: 'sessionId', send: inExpireSession('sessionId') },
  { limit: 'expire-session sessionId.max', bound: 'max', contract: 64, field: 'sessionId', send: inExpireSession('sessionId') },
  { limit: 'expire-session reason.max', bound: 'max', contract: 256, field: 'reason', send: inExpireSession('reason') },
];

/**
 * Every limit fields.ts (and the X-Client-Request-Id module) exports: each
 * string schema's min and max length, read from its checks, and each length
 * constant.
 */
function exportedLimits(): string[] {
  return Object.entries({ ...fields, ...clientRequestId }).flatMap(([name, value]) => {
    if (value instanceof z.core.$ZodString) {
      const kinds = (value._zod.def.checks ?? []).map((check) => check._zod.def.check);
      return [kinds.includes('min_length') ? [`${name}.min`] : [], kinds.includes('max_length') ? [`${name}.max`] : []].flat();
    }
    return typeof value === 'number' ? [name] : [];
  });
}

let server: ServiceServer;
let client: PaymentClient;

beforeAll(async () => {
  server = await startServiceServer((request) => {
    if (request.path.startsWith('/v1/checkout/refund')) return ok(refundData());
    if (request.path.startsWith('/v1/checkout/expire-session')) return ok({ sessionId: 'sess_1', sessionStatus: 'EXPIRED' });
    if (request.path.startsWith('/v1/checkout/create-session')) {
      return ok({ checkoutUrl: 'https://pay.example.com/c/abc', expiresAt: new Date(Date.now() + 60_000).toISOString(), sessionId: 'sess_1' });
    }
    return ok({ transactionId: 'txn_1', transactionStatus: 'S' });
  });
  client = createPaymentClient(clientOptions(server.url));
});

afterAll(async () => {
  await client.close();
  await server.close();
});

describe('the limits of the request schemas, through the client', () => {
  it('the table names every limit fields.ts exports', () => {
    const exported = exportedLimits();
    // Every string schema of fields.ts with a length is seen, not only the constants.
    expect(exported).toEqual(expect.arrayContaining(['appIdSchema.max', 'referenceOrderIdSchema.min', 'NOTIFY_URL_MAX', 'CLIENT_REQUEST_ID_MAX']));
    const held = [...LIMITS.map((row) => row.limit), 'CLIENT_REQUEST_ID_MAX'];
    expect(held.filter((limit) => exported.includes(limit)).sort()).toEqual(exported.sort());
  });

  it.each(LIMITS)('$limit: $field of $contract characters goes out, one past it is refused before sending', expectHeldAt);
});

async function expectHeldAt(row: Limit): Promise<void> {
  const value = row.value ?? text;
  const sent = server.requests.length;
  await row.send(client, value(row.contract));
  expect(server.requests.length, `a ${row.field} of ${row.contract} characters was refused`).toBe(sent + 1);
  expect(valueAt(server.requests.at(-1)?.json, row.field)).toHaveLength(row.contract);

  const past = row.bound === 'max' ? row.contract + 1 : row.contract - 1;
  const refusal = await row.send(client, value(past)).catch((error: unknown) => error);
  expect(refusal).toBeInstanceOf(PaymentValidationError);
  expect((refusal as PaymentValidationError).issues).toContainEqual(
    expect.objectContaining({ path: row.field, rule: row.bound === 'max' ? 'max_length' : 'min_length' }),
  );
  expect(server.requests.length, 'nothing is sent past the limit').toBe(sent + 1);
}

function valueAt(json: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], json);
}

describe('the limit of X-Client-Request-Id, on a webhook delivery', () => {
  const secret = 'whsec_limits_test_secret_0123456789';
  const payload = {
    transactionId: 'T1',
    transactionRequestId: 'R1',
    referenceOrderId: 'order-1',
    transactionType: 'SALE',
    transactionStatus: 'S',
    amount: { orderAmount: 1250, priceCurrency: 'USD' },
  };
  const verified = async (deliveryId: string) => {
    const { body, headers } = await signWebhookAsync({ payload, secret, deliveryId });
    return verifyWebhook({ secret, rawBody: body, headers });
  };

  it('a delivery id of 64 characters is read, one of 65 is refused', async () => {
    expect((await verified(text(64))).deliveryId).toHaveLength(64);
    await expect(verified(text(65))).rejects.toThrow(WebhookVerificationError);
  });
});
