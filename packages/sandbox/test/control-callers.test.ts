import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/cli-args';
import { startSandbox, type Sandbox } from '../src/index';

/**
 * The finding: a sandbox bound to 127.0.0.2 obeyed a caller on 127.0.0.3 (another
 * container or namespace sharing the host's loopback) sending `Host: 127.0.0.2`.
 * Each request here leaves from a chosen local address, over real HTTP.
 */
interface Answer {
  status: number;
  json: unknown;
}

function call(sandbox: Sandbox, from: string | undefined, method: string, path: string, body?: unknown): Promise<Answer> {
  const url = new URL(path, sandbox.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        ...(from === undefined ? {} : { localAddress: from }),
        headers: { host: url.host, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        const isJson = String(res.headers['content-type']).startsWith('application/json');
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: isJson ? JSON.parse(text) : text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

let receiver: Server;
let receiverUrl = '';
let received = 0;
beforeAll(async () => {
  receiver = createServer((_req, res) => {
    received += 1;
    res.writeHead(200).end('{}');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

/** Every control route that changes something or shows a record, as the attacker sent them. */
function attack(sandbox: Sandbox, from: string) {
  return Promise.all([
    call(sandbox, from, 'POST', '/sandbox/clock/advance', { ms: 24 * 3_600_000 }),
    call(sandbox, from, 'POST', '/sandbox/clock/reset', {}),
    call(sandbox, from, 'POST', '/sandbox/wallet-token', {}),
    call(sandbox, from, 'POST', '/sandbox/trigger', { event: 'payment.succeeded', forwardTo: receiverUrl }),
    call(sandbox, from, 'GET', '/sandbox/charges'),
    call(sandbox, from, 'GET', '/sandbox/deliveries'),
    call(sandbox, from, 'GET', '/sandbox/test-wallet.js'),
  ]);
}

describe('control routes answer this machine only', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ host: '127.0.0.2', clock: { now: () => Date.UTC(2031, 0, 1) }, allowLocalNotifyUrl: true });
  });
  afterAll(() => sandbox.close());

  it('a caller on 127.0.0.3 naming the sandbox in Host gets 403 C02 saying how to open them, and changes nothing', async () => {
    const before = sandbox.clock.now();
    const answers = await attack(sandbox, '127.0.0.3');
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 403,
        json: {
          error: {
            code: 'C02',
            message:
              'the control routes answer this machine only: caller 127.0.0.3 is neither 127.0.0.1, ::1 nor 127.0.0.2. ' +
              "To let it move the clock, mint tokens and send webhooks, start the sandbox with controlAllowList: ['127.0.0.3'] (--control-allow 127.0.0.3).",
          },
        },
      });
    }
    await sandbox.waitForDeliveries(2_000);
    expect(sandbox.clock.now()).toBe(before);
    expect(sandbox.deliveries()).toEqual([]);
    expect(received).toBe(0);
  });

  it('the service API and the hosted checkout page still answer that caller', async () => {
    const service = await call(sandbox, '127.0.0.3', 'POST', '/v1/checkout/sale', {});
    expect(service.status).toBe(401);
    const page = await call(sandbox, '127.0.0.3', 'GET', '/hosted/checkout/cs_unknown');
    expect(page.status).toBe(404);
  });

  it('this machine calling from 127.0.0.1 (the kernel default) or from the bound address itself is served', async () => {
    for (const from of [undefined, '127.0.0.1', '127.0.0.2']) {
      expect((await call(sandbox, from, 'GET', '/sandbox/clock')).status).toBe(200);
      expect((await call(sandbox, from, 'POST', '/sandbox/wallet-token', {})).status).toBe(201);
    }
  });
});

describe('controlAllowList (--control-allow) opens them to named callers', () => {
  it('a listed caller moves the clock and triggers a webhook; an unlisted one is still refused', async () => {
    const sandbox = await startSandbox({ host: '127.0.0.2', controlAllowList: ['127.0.0.3/32'], allowLocalNotifyUrl: true });
    try {
      const before = sandbox.clock.now();
      expect((await call(sandbox, '127.0.0.3', 'POST', '/sandbox/clock/advance', { ms: 60_000 })).status).toBe(200);
      expect(sandbox.clock.now()).toBeGreaterThanOrEqual(before + 60_000);
      const triggered = await call(sandbox, '127.0.0.3', 'POST', '/sandbox/trigger', { event: 'payment.succeeded', forwardTo: receiverUrl });
      expect(triggered.status).toBe(201);
      await sandbox.waitForDeliveries(5_000);
      expect(sandbox.deliveries().map((delivery) => delivery.state)).toEqual(['delivered']);
      expect((await call(sandbox, '127.0.0.4', 'GET', '/sandbox/clock')).status).toBe(403);
    } finally {
      await sandbox.close();
    }
  });

  it('is refused at start when an entry is not an address, naming the option', async () => {
    await expect(startSandbox({ controlAllowList: ['everyone'] })).rejects.toThrow('controlAllowList.0 "everyone" is not an IP address or CIDR range');
  });

  it('is what --control-allow sets, repeatable', () => {
    expect(parseCliArgs(['--control-allow', '10.0.0.0/8', '--control-allow', '192.0.2.7']).options.controlAllowList).toEqual(['10.0.0.0/8', '192.0.2.7']);
    expect(parseCliArgs([]).options.controlAllowList).toBeUndefined();
  });
});
