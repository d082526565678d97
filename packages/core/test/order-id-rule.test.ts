import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { captureConsole } from '../../../tools/adapter-testing';
import { sandboxFetchHandler } from './support/sandbox-fetch-handler';

// One UUID as a merchant's order store makes it: 36 characters, past the service's 32.
const uuid = randomUUID();
const shortened = uuid.replaceAll('-', '');

// The merchant's order store gives every id a coffee; the failure must reach the console without configuration.
const routes = sandboxFetchHandler((orderId) => ({ referenceOrderId: orderId, amount: { orderAmount: 1250, priceCurrency: 'USD' }, description: 'One coffee' }));

const checkout = (orderId: string) =>
  routes.handler(
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
    console.expectNoSecret([routes.sandbox.apiKey, routes.sandbox.webhookSecret]);
  } finally {
    console.restore();
  }
  expect(routes.sandbox.charges()).toEqual([]);
});

it('takes the same UUID without its dashes, the id the docs recommend', async () => {
  const response = await checkout(shortened);
  expect(response.status).toBe(201);
  expect(await response.json()).toMatchObject({ checkoutUrl: expect.stringContaining('/hosted/checkout/') });
});
