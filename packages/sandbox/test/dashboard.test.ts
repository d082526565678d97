import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeMiddleware } from '@paymount/core';
import { docsUrl } from '@paymount/core/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardSnapshot } from '../src/dashboard/snapshot';
import { startSandbox, type Sandbox } from '../src/index';
import { post, sessionBody, startReceiver, uniqueId } from './helpers';

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
}

/** One request over real HTTP, from `from` when given, with exactly the headers named (Host included). */
function call(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<Answer> {
  const url = new URL(path, sandbox.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        ...(options.from === undefined ? {} : { localAddress: options.from }),
        headers: { host: url.host, ...options.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A form post as the dashboard's own page sends it. */
function press(sandbox: Sandbox, path: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}) {
  return call(sandbox, 'POST', path, {
    headers: { origin: sandbox.url, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

async function snapshotOf(sandbox: Sandbox, orderId?: string): Promise<DashboardSnapshot> {
  const answer = await call(sandbox, 'GET', `/sandbox/dashboard/data${orderId ? `?orderId=${encodeURIComponent(orderId)}` : ''}`);
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.text) as { snapshot: DashboardSnapshot }).snapshot;
}

/**
 * A shop with a global auth middleware in front of everything, paymount's
 * routes included: the mistake the dashboard must diagnose. With `publicPaths`
 * the middleware lets the payment routes through (the fix).
 */
async function startShop(sandbox: Sandbox, options: { publicPaths?: string } = {}) {
  const payments = createNodeMiddleware(
    {
      client: sandbox.clientOptions(),
      resolveOrder: () => null,
      webhook: { secret: sandbox.webhookSecret },
      logger: false,
    },
    { mountPath: '/payments' },
  );
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const exempt = options.publicPaths !== undefined && (req.url ?? '').startsWith(options.publicPaths);
    if (!exempt && req.headers.authorization !== 'Bearer staff') {
      res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"Forbidden resource"}');
      return;
    }
    void payments(req, res, () => res.writeHead(404).end('Not Found'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/payments/webhook`,
    close: async () => {
      await payments.paymentRoutes.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

describe('the dashboard', () => {
  let sandbox: Sandbox;
  const logged: string[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [5, 5], log: (line) => logged.push(line) });
  });
  afterAll(() => sandbox.close());

  it('is at sandbox.dashboardUrl: a page served with a CSP that runs the sandbox\'s own script only', async () => {
    expect(sandbox.dashboardUrl).toBe(`${sandbox.url}/sandbox/dashboard`);
    const page = await call(sandbox, 'GET', '/sandbox/dashboard');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.text).toContain('<script src="/sandbox/dashboard/app.js" defer></script>');
    expect(page.text).not.toMatch(/<script>/);
    const script = await call(sandbox, 'GET', '/sandbox/dashboard/app.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.text).toContain('/sandbox/dashboard/data');
  });

  it('shows sessions, payments and deliveries with their states, filtered by order id', async () => {
    const receiver = await startReceiver();
    try {
      const body = sessionBody(sandbox, { notifyUrl: receiver.url });
      const orderId = String(body.referenceOrderId);
      const created = await post(sandbox, '/v1/checkout/create-session', body);
      const paid = await sandbox.trigger('payment.succeeded', { forwardTo: receiver.url, referenceOrderId: orderId });

      const snapshot = await snapshotOf(sandbox, orderId);
      expect(snapshot.orderId).toBe(orderId);
      expect(snapshot.sessions).toEqual([
        expect.objectContaining({ sessionId: created.json.data.sessionId, referenceOrderId: orderId, state: 'open', payableTotal: 2700, priceCurrency: 'USD' }),
      ]);
      expect(snapshot.charges).toEqual([expect.objectContaining({ referenceOrderId: orderId, transactionStatus: 'S', channel: 'direct' })]);
      expect(snapshot.deliveries).toEqual([
        expect.objectContaining({ deliveryId: paid.deliveryId, referenceOrderId: orderId, state: 'delivered', event: 'payment.succeeded' }),
      ]);
      const [attempt] = snapshot.deliveries[0]?.attempts ?? [];
      expect(attempt).toMatchObject({ status: 200, answer: 'ok', diagnosis: { outcome: 'delivered' } });
      expect(attempt?.durationMs).toBeGreaterThanOrEqual(0);

      const page = await call(sandbox, 'GET', `/sandbox/dashboard?orderId=${orderId}`);
      expect(page.text).toContain(`data-session-id="${String(created.json.data.sessionId)}" data-state="open"`);
      expect(page.text).toContain(`data-delivery-id="${paid.deliveryId}" data-state="delivered"`);
      expect(page.text).toContain('$27.00');

      const others = await snapshotOf(sandbox, uniqueId('order'));
      expect(others).toMatchObject({ sessions: [], charges: [], refunds: [], deliveries: [] });
    } finally {
      await receiver.close();
    }
  });

  it('answers its data 304 while nothing changed, and the new sections once something did (what the page polls)', async () => {
    const first = await call(sandbox, 'GET', '/sandbox/dashboard/data');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(Object.keys((JSON.parse(first.text) as { html: object }).html)).toEqual(['calls', 'sessions', 'payments', 'refunds', 'deliveries']);
    expect((await call(sandbox, 'GET', '/sandbox/dashboard/data', { headers: { 'if-none-match': etag } })).status).toBe(304);
    await post(sandbox, '/v1/checkout/create-session', sessionBody(sandbox));
    const changed = await call(sandbox, 'GET', '/sandbox/dashboard/data', { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('escapes what merchants and receivers wrote: a hostile description, order id and answer stay text', async () => {
    const hostile = '<script>alert("x")</script><img src=x onerror=alert(1)>';
    const orderId = 'ord_<b>*|x';
    await post(sandbox, '/v1/checkout/create-session', sessionBody(sandbox, { description: hostile, referenceOrderId: 'ord-*|hostile' }));
    const answering = createServer((_req, res) => res.writeHead(500).end(hostile));
    await new Promise<void>((resolve) => answering.listen(0, '127.0.0.1', resolve));
    try {
      await sandbox.trigger('payment.failed', { forwardTo: `http://127.0.0.1:${(answering.address() as AddressInfo).port}/w` });
    } finally {
      answering.close();
    }
    const page = await call(sandbox, 'GET', `/sandbox/dashboard?orderId=${encodeURIComponent(orderId)}`);
    const all = await call(sandbox, 'GET', '/sandbox/dashboard');
    for (const text of [page.text, all.text]) {
      expect(text).not.toContain('<script>alert');
      expect(text).not.toContain('<img src=x');
      expect(text).not.toContain('<b>*|x');
    }
    expect(page.text).toContain('value="ord_&lt;b&gt;*|x"');
    expect(all.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    const data = JSON.parse((await call(sandbox, 'GET', '/sandbox/dashboard/data')).text) as { html: Record<string, string> };
    expect(data.html.deliveries).toContain('&lt;script&gt;');
    expect(Object.values(data.html).join('')).not.toContain('<script>alert');
  });

  it("diagnoses a global auth middleware in front of paymount's webhook route, on the dashboard and in the log", async () => {
    const shop = await startShop(sandbox);
    try {
      const delivery = await sandbox.trigger('payment.succeeded', { forwardTo: shop.webhookUrl });
      expect(delivery.state).toBe('failed');
      const snapshot = await snapshotOf(sandbox);
      const shown = snapshot.deliveries.find((item) => item.deliveryId === delivery.deliveryId);
      expect(shown?.attempts).toHaveLength(3);
      for (const attempt of shown?.attempts ?? []) {
        expect(attempt).toMatchObject({ status: 403, answer: '{"message":"Forbidden resource"}', diagnosis: { outcome: 'refused-by-app' } });
        expect(attempt.paymountRoute).toBeUndefined();
        // Of the answer's headers, only those that tell a framework are kept (no date, no connection).
        expect(attempt.answerHeaders).toEqual({ 'content-type': 'application/json', 'keep-alive': expect.stringMatching(/^timeout=\d+$/) });
        expect(attempt.diagnosis.why).toBe("your app answered 403 Forbidden before paymount's webhook route ran: a global guard or auth hook blocks the webhook route");
        expect(attempt.diagnosis.fix).toContain('Express, mount the payment router before the auth middleware');
      }
      const page = await call(sandbox, 'GET', '/sandbox/dashboard');
      expect(page.text).toContain('your app answered 403 Forbidden before paymount&#39;s webhook route ran: a global guard or auth hook blocks the webhook route');
      expect(page.text).toContain(`href="${docsUrl('deliveryFailures', 'app-auth')}"`);

      const lines = logged.filter((line) => line.includes(delivery.deliveryId));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain(`webhook payment.succeeded delivery ${delivery.deliveryId}`);
      expect(lines[0]).toContain(
        `to ${shop.webhookUrl}, attempt 1 failed: your app answered 403 Forbidden before paymount's webhook route ran: a global guard or auth hook blocks the webhook route. Fix: exempt the payment routes`,
      );
      expect(lines[0]).toContain(`Retrying in 5 ms; every attempt is on the dashboard at ${sandbox.dashboardUrl}`);
      expect(lines[1]).toContain('attempt 3 failed');
      expect(lines[1]).toContain('Gave up after 3 attempts');
    } finally {
      await shop.close();
    }
  });

  it("tells paymount's own refusal (a wrong secret) and a duplicate from the app's, by the route marker", async () => {
    const shop = await startShop(sandbox, { publicPaths: '/payments/' });
    const wrongSecret = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [], log: false });
    try {
      const delivered = await sandbox.trigger('payment.succeeded', { forwardTo: shop.webhookUrl });
      expect(delivered.attempts[0]).toMatchObject({ status: 200, paymountRoute: 'webhook' });
      const again = await sandbox.resend(delivered.deliveryId);
      const resent = (await snapshotOf(sandbox)).deliveries.find((item) => item.deliveryId === again.deliveryId);
      expect(resent?.attempts[0]?.diagnosis.outcome).toBe('duplicate');

      const refused = await wrongSecret.trigger('payment.succeeded', { forwardTo: shop.webhookUrl });
      const [attempt] = (await snapshotOf(wrongSecret)).deliveries.find((item) => item.deliveryId === refused.deliveryId)?.attempts ?? [];
      expect(attempt).toMatchObject({ status: 400, paymountRoute: 'webhook', diagnosis: { outcome: 'refused-by-paymount', errorCode: 'WEBHOOK_BAD_SIGNATURE' } });
      expect(attempt?.diagnosis.fix).toContain("webhook secret as the sandbox's webhookSecret");
    } finally {
      await wrongSecret.close();
      await shop.close();
    }
  });
});

describe("the dashboard's buttons", () => {
  let sandbox: Sandbox;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [], log: false });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await sandbox.close();
    await receiver.close();
  });

  it('resend: a new delivery of the same bytes, then back to the dashboard, its filter kept', async () => {
    const original = await sandbox.trigger('payment.succeeded', { forwardTo: receiver.url, referenceOrderId: 'order-resend-1' });
    const answer = await press(sandbox, `/sandbox/dashboard/deliveries/${original.deliveryId}/resend`, { orderId: 'order-resend-1' });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/sandbox/dashboard?orderId=order-resend-1&done=resent');
    await sandbox.waitForDeliveries();
    const resent = sandbox.deliveries().at(-1);
    expect(resent).toMatchObject({ resentFrom: original.deliveryId, body: original.body, state: 'delivered' });
    const page = await call(sandbox, 'GET', answer.headers.location ?? '');
    expect(page.text).toContain('Delivery resent');
  });

  it('trigger: the event is created and delivered; a refused form comes back with the reason, nothing created', async () => {
    const before = sandbox.deliveries().length;
    const answer = await press(sandbox, '/sandbox/dashboard/trigger', {
      event: 'refund.succeeded',
      forwardTo: receiver.url,
      referenceOrderId: 'order-trigger-1',
      amount: '1999',
    });
    expect(answer.status).toBe(303);
    await sandbox.waitForDeliveries();
    expect(sandbox.deliveries().at(-1)).toMatchObject({ event: 'refund.succeeded', state: 'delivered', payload: { referenceOrderId: 'order-trigger-1' } });
    expect(sandbox.refunds().at(-1)).toMatchObject({ referenceOrderId: 'order-trigger-1', amount: { totalAmount: 1999 } });

    const refused = await press(sandbox, '/sandbox/dashboard/trigger', { event: 'payment.succeeded', forwardTo: 'http://10.0.0.1/hook', amount: '12.5' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('id="dashboard-notice" role="alert">Refused: ');
    expect(refused.text).toContain('must be an http(s) URL on this machine');
    expect(sandbox.deliveries()).toHaveLength(before + 1);
  });

  it('expire: an open session closes at once and its payment.closed webhook goes out; a paid one is refused', async () => {
    const created = await post(sandbox, '/v1/checkout/create-session', sessionBody(sandbox, { notifyUrl: receiver.url }));
    const sessionId = String(created.json.data.sessionId);
    const answer = await press(sandbox, `/sandbox/dashboard/sessions/${sessionId}/expire`);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/sandbox/dashboard?done=expired');
    await sandbox.waitForDeliveries();
    expect(sandbox.deliveries().at(-1)).toMatchObject({ event: 'payment.closed', payload: { sessionId, transactionStatus: 'C' } });
    expect((await snapshotOf(sandbox)).sessions.find((session) => session.sessionId === sessionId)?.state).toBe('expired');

    const unknown = await press(sandbox, '/sandbox/dashboard/sessions/cs_unknown/expire');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Refused: H01: no checkout session with this sessionId');
  });

  it('refuses a post from another origin, or without one, with 403 C03 and changes nothing', async () => {
    const original = await sandbox.trigger('payment.succeeded', { forwardTo: receiver.url });
    const before = sandbox.deliveries().length;
    const path = `/sandbox/dashboard/deliveries/${original.deliveryId}/resend`;
    for (const origin of ['https://evil.example', 'null', `${sandbox.url}.evil.example`, 'http://localhost:1']) {
      const answer = await press(sandbox, path, {}, { origin });
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'C03' } });
    }
    const withoutOrigin = await call(sandbox, 'POST', path, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(withoutOrigin.status).toBe(403);
    const asJson = await press(sandbox, path, {}, { 'content-type': 'application/json' });
    expect(asJson.status).toBe(415);
    expect(sandbox.deliveries()).toHaveLength(before);
  });

  it('answers another Host (DNS rebinding) with 421 C01, pages, data and buttons alike', async () => {
    const before = sandbox.deliveries().length;
    const original = sandbox.deliveries().at(-1);
    for (const [method, path] of [
      ['GET', '/sandbox/dashboard'],
      ['GET', '/sandbox/dashboard/data'],
      ['GET', '/sandbox/dashboard/app.js'],
      ['POST', `/sandbox/dashboard/deliveries/${original?.deliveryId}/resend`],
    ] as const) {
      const answer = await call(sandbox, method, path, {
        headers: { host: 'evil.example', origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
        ...(method === 'POST' ? { body: '' } : {}),
      });
      expect(answer.status).toBe(421);
      expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'C01' } });
    }
    expect(sandbox.deliveries()).toHaveLength(before);
  });
});

describe('the dashboard answers this machine only', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ host: '127.0.0.2', allowLocalNotifyUrl: true, log: false });
  });
  afterAll(() => sandbox.close());

  it('a caller on 127.0.0.3 gets 403 C02 for the page, its data and its buttons, whatever Host and Origin it sends', async () => {
    const receiver = await startReceiver();
    try {
      const original = await sandbox.trigger('payment.succeeded', { forwardTo: receiver.url });
      for (const [method, path] of [
        ['GET', '/sandbox/dashboard'],
        ['GET', '/sandbox/dashboard/data'],
        ['POST', `/sandbox/dashboard/deliveries/${original.deliveryId}/resend`],
        ['POST', '/sandbox/dashboard/trigger'],
      ] as const) {
        const answer = await call(sandbox, method, path, {
          from: '127.0.0.3',
          headers: { origin: sandbox.url, 'content-type': 'application/x-www-form-urlencoded' },
          ...(method === 'POST' ? { body: new URLSearchParams({ event: 'payment.succeeded', forwardTo: receiver.url }).toString() } : {}),
        });
        expect(answer.status).toBe(403);
        expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'C02' } });
      }
      expect(sandbox.deliveries()).toHaveLength(1);
      expect((await call(sandbox, 'GET', '/sandbox/dashboard', { from: '127.0.0.2' })).status).toBe(200);
    } finally {
      await receiver.close();
    }
  });
});
