import { randomUUID } from 'node:crypto';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { captureConsole } from '../../../tools/adapter-testing';
import { createFetchHandler, type FetchHandler } from '../src';

// One UUID as a merchant's order store makes it: 36 characters, past the service's 32.
const uuid = randomUUID();
const shortened = uuid.replaceAll('-', '');

let sandbox: Sandbox;
let handler: FetchHandler;

beforeAll(async () => {
  sandbox = await startSandbox({ log: false });
  // No logger option: the failure must reach the console a merchant reads without configuring anything.
  handler = createFetchHandler(
    {
      client: sandbox.clientOptions(),
      resolveOrder: (orderId) => ({ referenceOrderId: orderId, amount: { orderAmount: 1250, priceCurrency: 'USD' }, description: 'One coffee' }),
      webhook: { secret: sandbox.webhookSecret },
    },
    { mountPath: '/payments' },
  );
});

afterAll(async () => {
  await handler?.paymentRoutes.close();
  await sandbox?.close();
});

const checkout = (orderId: string) =>
  handler(
    new Request('http://127.0.0.1/payments/checkout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderId }) }),
  );

it("refuses a UUID as referenceOrderId before the service, and the log's fix names the id's length, the limit and how to shorten it", async () => {
  const console = captureConsole();
  try {
    const response = await checkout(uuid);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: 'INVALID_ORDER', message: 'This order cannot be paid as it is set up on the server.' } });
    const lines = console.paymount();
    expect(lines).toHaveLength(1);
    const logged = JSON.parse(lines[0]!.slice(lines[0]!.indexOf('{'))) as { code: string; fix: string; issues: { path: string; rule: string; message: string }[] };
    expect(logged.code).toBe('INVALID_ORDER');
    expect(logged.issues).toEqual([{ path: 'referenceOrderId', rule: 'max_length', message: expect.stringContaining('a UUID is 36, without its dashes 32') }]);
    expect(logged.fix).toContain('resolveOrder returned a referenceOrderId of 36 characters that must be at most 32 characters');
    expect(logged.fix).toContain("randomUUID().replaceAll('-', '')");
    console.expectNoSecret([sandbox.apiKey, sandbox.webhookSecret]);
  } finally {
    console.restore();
  }
  expect(sandbox.charges()).toEqual([]);
});

it('takes the same UUID without its dashes, the id the docs recommend', async () => {
  const response = await checkout(shortened);
  expect(response.status).toBe(201);
  expect(await response.json()).toMatchObject({ checkoutUrl: expect.stringContaining('/hosted/checkout/') });
});
