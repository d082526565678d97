import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index';
import { post, saleBody, startReceiver } from './helpers';

const SALE = '/v1/checkout/sale';
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((close) => close()));
});

async function setup(options: Parameters<typeof startSandbox>[0], receiverOptions: Parameters<typeof startReceiver>[0] = {}) {
  const sandbox: Sandbox = await startSandbox({ allowLocalNotifyUrl: true, ...options });
  const receiver = await startReceiver(receiverOptions);
  cleanup.push(() => sandbox.close(), () => receiver.close());
  return { sandbox, receiver };
}

describe('webhook deliveries', () => {
  it('retries on any non-200 with the configured delays, keeping the delivery id and the signed body', async () => {
    const { sandbox, receiver } = await setup({ webhookRetryDelaysMs: [5, 10, 20] }, { statuses: [500, 204, 302] });
    await post(sandbox, SALE, saleBody(sandbox, { notifyUrl: receiver.url }));
    await sandbox.waitForDeliveries();
    expect(receiver.received).toHaveLength(4);
    const ids = new Set(receiver.received.map((r) => r.headers['x-client-request-id']));
    expect(ids.size).toBe(1);
    for (const hook of receiver.received) {
      expect(hook.headers['x-signature']).toBe(createHmac('sha256', sandbox.webhookSecret).update(hook.rawBody).digest('hex'));
    }
    const [delivery] = sandbox.deliveries();
    expect(delivery?.state).toBe('delivered');
    expect(delivery?.attempts.map((a) => a.status)).toEqual([500, 204, 302, 200]);
  });

  it('gives up after the last delay and logs the delivery as failed', async () => {
    const { sandbox, receiver } = await setup({ webhookRetryDelaysMs: [1, 1] }, { statuses: [503, 503, 503, 503] });
    await post(sandbox, SALE, saleBody(sandbox, { notifyUrl: receiver.url }));
    await sandbox.waitForDeliveries();
    expect(receiver.received).toHaveLength(3);
    expect(sandbox.deliveries()[0]).toMatchObject({ state: 'failed', attempts: [{ status: 503 }, { status: 503 }, { status: 503 }] });
  });

  it('a receiver that does not answer within the time-out is retried; the API answer never waits for it', async () => {
    const { sandbox, receiver } = await setup({ webhookRetryDelaysMs: [1], webhookTimeoutMs: 50 }, { hang: true });
    const answer = await post(sandbox, SALE, saleBody(sandbox, { notifyUrl: receiver.url }));
    expect(answer.json.data.transactionStatus).toBe('S');
    await sandbox.waitForDeliveries();
    const [delivery] = sandbox.deliveries();
    expect(delivery?.state).toBe('failed');
    expect(delivery?.attempts).toHaveLength(2);
    expect(delivery?.attempts[0]?.error).toContain('50 ms');
  });

  it('a refused connection counts as a failed attempt', async () => {
    const { sandbox, receiver } = await setup({ webhookRetryDelaysMs: [1] });
    const url = receiver.url;
    await receiver.close();
    await post(sandbox, SALE, saleBody(sandbox, { notifyUrl: url }));
    await sandbox.waitForDeliveries();
    expect(sandbox.deliveries()[0]).toMatchObject({ state: 'failed' });
    expect(sandbox.deliveries()[0]?.attempts[0]?.error).toMatch(/ECONNREFUSED/);
  });

  it('the delivery log is readable over HTTP at /sandbox/deliveries', async () => {
    const { sandbox, receiver } = await setup({});
    await post(sandbox, SALE, saleBody(sandbox, { notifyUrl: receiver.url }));
    await sandbox.waitForDeliveries();
    const res = await fetch(`${sandbox.url}/sandbox/deliveries`);
    const { deliveries } = (await res.json()) as { deliveries: Array<{ url: string; state: string }> };
    expect(deliveries).toEqual([expect.objectContaining({ url: receiver.url, state: 'delivered' })]);
    expect(JSON.stringify(deliveries)).not.toContain(sandbox.webhookSecret);
  });

  it('localhost notifyUrls are refused unless allowLocalNotifyUrl is set', async () => {
    const strict = await startSandbox();
    cleanup.push(() => strict.close());
    const answer = await post(strict, SALE, saleBody(strict, { notifyUrl: 'http://localhost:3000/webhook' }));
    expect(answer.json.code).toBe('V10');
  });
});
