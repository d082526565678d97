import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@paymount/core/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryAttempt } from '../src/webhooks/deliveries';
import { diagnoseAttempt } from '../src/webhooks/diagnosis';
import { startSandbox, type Sandbox } from '../src/index';

/**
 * A receiver that checks deliveries itself, as a Worker calling verifyWebhook does, and answers
 * its own `400 {"error":"bad_signature"}` when the check fails: no paymount route, no marker.
 */
async function ownVerifier(secret: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      verifyWebhook({ rawBody: Buffer.concat(chunks), headers: req.headers, secret }).then(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}'),
        () => res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad_signature"}'),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`, server };
}

let sandbox: Sandbox;
let receiver: { url: string; server: Server };

beforeAll(async () => {
  sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [], log: false });
  // Another secret than the sandbox's: the mistake of a Worker given a stale or mistyped secret.
  receiver = await ownVerifier('whsec_not_the_sandbox_secret_0123456789');
});

afterAll(async () => {
  receiver?.server.closeAllConnections();
  receiver?.server.close();
  await sandbox?.close();
});

describe("a delivery refused by the app's own signature check", () => {
  it('is diagnosed as a signature refusal by the app, naming the secret and the exact bytes, not a body parser', async () => {
    const delivery = await sandbox.trigger('payment.succeeded', { forwardTo: receiver.url });
    const [attempt] = sandbox.deliveries().find((each) => each.deliveryId === delivery.deliveryId)?.attempts ?? [];
    expect(attempt).toMatchObject({ status: 400, answer: '{"error":"bad_signature"}' });
    const diagnosis = diagnoseAttempt(attempt!, receiver.url);
    expect(diagnosis.outcome).toBe('refused-by-app');
    expect(diagnosis.why).toContain('your own code (a Worker or handler that verifies deliveries itself) refused the signature');
    expect(diagnosis.why).not.toContain('body parser');
    expect(diagnosis.fix).toContain("configure the app's webhook secret as the sandbox's webhookSecret");
    expect(diagnosis.fix).toContain('await request.text()');
  });

  it.each([
    [401, 'invalid signature'],
    [403, '{"code":"WEBHOOK_BAD_SIGNATURE"}'],
  ])('%i answering %s is the same refusal, not an auth guard', (status, answer) => {
    const attempt: DeliveryAttempt = { at: '2026-01-01T00:00:00.000Z', status, answer };
    expect(diagnoseAttempt(attempt, receiver.url).why).toContain('refused the signature');
  });

  it('a 400 that does not name the signature is still a body parser before the route', () => {
    const attempt: DeliveryAttempt = { at: '2026-01-01T00:00:00.000Z', status: 400, answer: '{"error":"invalid json"}' };
    expect(diagnoseAttempt(attempt, receiver.url).why).toContain('a body parser before the route');
  });
});
