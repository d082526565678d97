import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPaymentClient, PaymentApiError, PaymentNotFoundError, type PaymentClient } from '../src';
import { checkoutInput } from './support/fixtures';

let sandbox: Sandbox;
let client: PaymentClient;

beforeAll(async () => {
  // The sandbox refuses loopback notifyUrls (no allowLocalNotifyUrl) while the client, in local development, sends them.
  sandbox = await startSandbox();
  client = createPaymentClient(sandbox.clientOptions());
});

afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

it("keeps the service's code in serviceCode beside paymount's code, and the refusal's data", async () => {
  const error = await client.createCheckoutSession(checkoutInput({ notifyUrl: 'http://127.0.0.1:9/payments/webhook' })).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PaymentApiError);
  expect(error).toMatchObject({
    code: 'SERVICE_REFUSED',
    serviceCode: 'V10',
    httpStatus: 400,
    traceId: expect.any(String),
    data: { issues: [{ field: 'notifyUrl', code: 'V10', message: expect.stringContaining('notifyUrl') }] },
  });
});

it('names an unknown transaction SERVICE_NOT_FOUND, with the service code it came with', async () => {
  const error = await client.getTransaction({ transactionId: 'txn_never_made' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PaymentNotFoundError);
  expect(error).toMatchObject({ code: 'SERVICE_NOT_FOUND', serviceCode: 'T01', httpStatus: 404 });
});
