import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../src/commands/args';
import { startSandbox, type Delivery, type Sandbox } from '../src/index';
import { post, saleBody, startReceiver } from './helpers';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI to its end. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build -w @paymount/sandbox` first');
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, PAYMOUNT_SANDBOX_URL: '', ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

let sandbox: Sandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  sandbox = await startSandbox({ webhookRetryDelaysMs: [50, 50] });
  receiver = await startReceiver();
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

const at = () => ['--sandbox-url', sandbox.url];

describe('paymount-sandbox trigger', () => {
  it('shows each attempt as it happens, then the delivery and the receiver\'s answer; exit 0', async () => {
    const refusingOnce = await startReceiver({ statuses: [503] });
    try {
      const run = await cli(['trigger', 'payment.succeeded', '--forward-to', refusingOnce.url, '--reference-order-id', 'order-cli-7'], { PAYMOUNT_SANDBOX_URL: sandbox.url });
      expect(run.code).toBe(0);
      const delivery = sandbox.deliveries().at(-1)!;
      expect(run.stderr).toContain(`payment.succeeded delivery ${delivery.deliveryId} to ${refusingOnce.url}: waiting for the receiver`);
      expect(run.stderr).toMatch(/attempt 1 at \S+: HTTP 503 ok \(retrying in 50 ms\)\n {2}attempt 2 at \S+: HTTP 200 ok\n/);
      expect(run.stdout).toContain('Delivered:');
      expect(run.stdout).toMatch(new RegExp(`deliveryId +${delivery.deliveryId}`));
      expect(run.stdout).toMatch(/referenceOrderId +order-cli-7/);
      expect(run.stdout).toMatch(/answer +HTTP 200 ok/);
      expect(refusingOnce.received).toHaveLength(2);
    } finally {
      await refusingOnce.close();
    }
  });

  it('--json prints the settled delivery as JSON', async () => {
    const run = await cli(['trigger', 'refund.failed', '--forward-to', receiver.url, '--amount', '20000', '--currency', 'EUR', '--json', ...at()]);
    expect(run.code).toBe(0);
    const delivery = JSON.parse(run.stdout) as Delivery;
    expect(delivery).toMatchObject({ event: 'refund.failed', state: 'delivered', payload: { transactionType: 'REFUND', transactionStatus: 'F' } });
    expect(sandbox.refunds().at(-1)).toMatchObject({ transactionId: delivery.payload.transactionId, amount: { priceCurrency: 'EUR', totalAmount: 8888 } });
  });

  it('exits 5 when the receiver never answers 200, still printing the delivery', async () => {
    const gone = await startReceiver();
    await gone.close();
    const run = await cli(['trigger', 'payment.closed', '--forward-to', gone.url, '--json', ...at()]);
    expect(run.code).toBe(5);
    expect((JSON.parse(run.stdout) as Delivery).state).toBe('failed');
    expect(run.stderr).toMatch(/attempt 3 at \S+: no answer: .*ECONNREFUSED/);
    expect(run.stderr).toContain(`the receiver at ${gone.url} never answered 200 in 3 attempt(s)`);
    expect(run.stderr).toContain(`no answer: nothing listens at ${new URL(gone.url).host}`);
    expect(run.stderr).toContain('Fix: start the app, or set notifyUrl to the port it listens on');
  });

  it('a receiver refusing before paymount ran: stderr says so in words, with the likely cause and the fix', async () => {
    const guarded = await startReceiver({ statuses: [403, 403, 403] });
    try {
      const run = await cli(['trigger', 'payment.succeeded', '--forward-to', guarded.url, ...at()]);
      expect(run.code).toBe(5);
      expect(run.stderr).toContain(
        "your app answered 403 Forbidden before paymount's webhook route ran: a global guard or auth hook blocks the webhook route. Fix: exempt the payment routes",
      );
      expect(run.stdout).toMatch(/why +your app answered 403 Forbidden before paymount's webhook route ran/);
    } finally {
      await guarded.close();
    }
  });

  it('exits 2 with the sandbox\'s reason on a forward URL it refuses, creating nothing', async () => {
    const before = sandbox.charges().length;
    const run = await cli(['trigger', 'payment.succeeded', '--forward-to', 'http://169.254.169.254/latest', ...at()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the sandbox refused: D02 forwardTo must be an http(s) URL on this machine (localhost, 127.0.0.1, [::1]) or a public HTTPS URL');
    expect(sandbox.charges()).toHaveLength(before);
  });

  it.each([
    [['trigger', 'payment.refunded', '--forward-to', 'http://localhost:3000/w'], 'unknown event "payment.refunded": one of payment.succeeded'],
    [['trigger', 'payment.succeeded'], '--forward-to <url> is required'],
    [['trigger', '--forward-to', 'http://localhost:3000/w'], 'expected exactly one <event>, got 0'],
    [['trigger', 'payment.succeeded', '--forward-to', 'http://localhost:3000/w', '--amount', '12.50'], '--amount must be an integer >= 1'],
    [['trigger', 'payment.succeeded', '--forward-to', 'http://localhost:3000/w', '--sandbox-url', 'localhost:4010'], '--sandbox-url must be'],
    [['resend'], 'expected exactly one <deliveryId>, got 0'],
    [['deliveries', '--colour'], "Unknown option '--colour'"],
    [['deliveries', 'all'], 'deliveries takes no argument, got "all"'],
  ])('exits 2 with the command\'s usage on %j', async (args, message) => {
    const run = await cli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain(`Usage: paymount-sandbox ${args[0]}`);
  });

  it('exits 3 with what to do when no sandbox answers', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as AddressInfo;
        server.close(() => resolve(free));
      });
    });
    const run = await cli(['deliveries'], { PAYMOUNT_SANDBOX_URL: `http://127.0.0.1:${port}` });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`no paymount sandbox answers at http://127.0.0.1:${port} (ECONNREFUSED)`);
    expect(run.stderr).toContain('--sandbox-url or PAYMOUNT_SANDBOX_URL');
  });

  it('exits 3 when the URL answers but is not a sandbox', async () => {
    const page = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    try {
      const run = await cli(['deliveries', '--sandbox-url', `http://127.0.0.1:${(page.address() as AddressInfo).port}`]);
      expect(run.code).toBe(3);
      expect(run.stderr).toContain("HTTP 404, not a paymount sandbox's answer");
    } finally {
      page.close();
    }
  });

  it('exits 1 on the sandbox\'s internal error, with its code', async () => {
    // Service time past what a Date can hold: the sandbox cannot stamp the transaction.
    const broken = await startSandbox({ onError: () => {} });
    broken.clock.set(8.64e15 + 1);
    try {
      const run = await cli(['trigger', 'payment.succeeded', '--forward-to', receiver.url, '--sandbox-url', broken.url]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('the sandbox refused: E01 internal error');
    } finally {
      await broken.close();
    }
  });

  it('shows an attempt once it is answered: a slow receiver\'s attempts are each printed with their status', async () => {
    // Each answer takes longer than the command's poll, so the command sees every attempt while it is under way.
    const slow = createServer((_req, res) => void setTimeout(() => res.writeHead(404).end('not here'), 450));
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const run = await cli(['trigger', 'payment.closed', '--forward-to', `http://127.0.0.1:${(slow.address() as AddressInfo).port}/w`, ...at()]);
      expect(run.code).toBe(5);
      expect(run.stderr.match(/attempt \d at \S+: HTTP 404 not here/g), run.stderr).toHaveLength(3);
      expect(run.stderr).not.toContain('no answer');
    } finally {
      slow.close();
    }
  });

  it('prints a receiver\'s answer without its control characters', async () => {
    const hostile = createServer((_req, res) => res.writeHead(200).end('fine\u001b[2J\u001b]0;owned\u0007\r\nbye'));
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    try {
      const run = await cli(['trigger', 'payment.succeeded', '--forward-to', `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/w`, ...at()]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('HTTP 200 fine\\x1b[2J\\x1b]0;owned\\x07\\x0d\\x0abye');
      const controlCharacters = [...`${run.stdout}${run.stderr}`].filter((c) => c !== '\n' && (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f));
      expect(controlCharacters).toEqual([]);
    } finally {
      hostile.close();
    }
  });
});

/** Characters a terminal would act on, other than the newlines that end the commands' own lines. */
function controlCharactersIn(text: string): string[] {
  return [...text].filter((c) => c !== '\n' && (c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f)));
}

describe('what the commands print of stored fields', () => {
  it('a notifyUrl and a description carrying escape sequences are printed escaped by deliveries, resend and trigger', async () => {
    const local = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [20] });
    const escapes = '\u001b[2J\u001b]0;owned\u0007\u009b31m';
    try {
      const notifyUrl = `${receiver.url}?next=${escapes}`;
      const sale = await post(local, '/v1/checkout/sale', saleBody(local, { notifyUrl, description: `Mugs ${escapes}` }));
      expect(sale.status).toBe(200);
      await local.waitForDeliveries(5_000);
      const stored = local.deliveries().at(-1)!;
      expect(stored.url).toBe(notifyUrl);
      const runs = [
        await cli(['deliveries', '--sandbox-url', local.url]),
        await cli(['resend', stored.deliveryId, '--sandbox-url', local.url]),
        await cli(['trigger', 'payment.succeeded', '--forward-to', notifyUrl, '--sandbox-url', local.url]),
      ];
      for (const run of runs) {
        expect(run.code).toBe(0);
        expect(controlCharactersIn(`${run.stdout}${run.stderr}`)).toEqual([]);
        expect(`${run.stdout}${run.stderr}`).toContain('?next=\\x1b[2J\\x1b]0;owned\\x07\\x9b31m');
      }
      // --json prints the same values, every control character (C1 too, which JSON.stringify leaves raw) as a JSON escape.
      for (const args of [['deliveries', '--json'], ['resend', stored.deliveryId, '--json']]) {
        const json = await cli([...args, '--sandbox-url', local.url]);
        expect(controlCharactersIn(json.stdout)).toEqual([]);
        expect(json.stdout).toContain('?next=\\u001b[2J\\u001b]0;owned\\u0007\\u009b31m');
        expect([JSON.parse(json.stdout) as Delivery | Delivery[]].flat()[0]?.url).toBe(notifyUrl);
      }
    } finally {
      await local.close();
    }
  });

  it('a refusal written by whatever answers at --sandbox-url is printed escaped', async () => {
    const impostor = createServer((_req, res) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'R02\u001b[2J', message: 'bad\u001b]0;owned\u0007' } })),
    );
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    try {
      const run = await cli(['deliveries', '--sandbox-url', `http://127.0.0.1:${(impostor.address() as AddressInfo).port}`]);
      expect(controlCharactersIn(run.stderr)).toEqual([]);
      expect(run.stderr).toContain('the sandbox refused: R02\\x1b[2J bad\\x1b]0;owned\\x07');
    } finally {
      impostor.close();
    }
  });
});

describe('paymount-sandbox resend and deliveries', () => {
  it('resend sends a logged delivery again; an unknown id exits 4', async () => {
    const first = await sandbox.trigger('payment.failed', { forwardTo: receiver.url });
    const run = await cli(['resend', first.deliveryId, '--json', ...at()]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ resentFrom: first.deliveryId, body: first.body, state: 'delivered' });
    const unknown = await cli(['resend', 'f00dfeed-0000-4000-8000-000000000000', ...at()]);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('D01 no webhook delivery "f00dfeed-0000-4000-8000-000000000000" in the delivery log');
  });

  it('deliveries prints a table for humans and JSON for machines, the most recent last', async () => {
    const last = await sandbox.trigger('payment.closed', { forwardTo: receiver.url });
    const json = await cli(['deliveries', '--json', '--limit', '3', ...at()]);
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.stdout) as Delivery[];
    expect(listed).toHaveLength(3);
    expect(listed.at(-1)).toMatchObject({ deliveryId: last.deliveryId, state: 'delivered', attempts: [{ status: 200, answer: 'ok' }] });
    const table = await cli(['deliveries', ...at()]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^DELIVERY +EVENT +STATE +ATTEMPTS +LAST ANSWER +URL$/);
    const rows = lines.filter((line) => /^[0-9a-f]{8}-/.test(line));
    expect(rows.at(-1)).toMatch(new RegExp(`^${last.deliveryId} +payment\\.closed +delivered +1 +HTTP 200 ok +${receiver.url}$`));
  });

  it('deliveries says under the table why each failed delivery failed', async () => {
    const guarded = await startReceiver({ statuses: [404, 404, 404] });
    try {
      const failed = await sandbox.trigger('payment.succeeded', { forwardTo: guarded.url });
      const table = await cli(['deliveries', '--limit', '1', ...at()]);
      expect(table.code).toBe(0);
      expect(table.stdout).toContain(
        `Why the last attempt failed:\n  ${failed.deliveryId}: your app answered 404 Not Found before paymount's webhook route ran: paymount's routes are not mounted at that path`,
      );
    } finally {
      await guarded.close();
    }
  });

  it('deliveries of a sandbox that sent nothing says so', async () => {
    const empty = await startSandbox();
    try {
      const run = await cli(['deliveries', '--sandbox-url', empty.url]);
      expect(run).toMatchObject({ code: 0, stdout: 'no webhook deliveries yet\n' });
    } finally {
      await empty.close();
    }
  });
});

describe('--help', () => {
  it.each(['trigger', 'resend', 'deliveries'])('%s --help prints its usage and the exit statuses, exit 0', async (command) => {
    const run = await cli([command, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: paymount-sandbox ${command}`));
    expect(run.stdout).toContain('3 sandbox unreachable, 4 unknown delivery');
  });

  it('the sandbox\'s own --help lists the commands', async () => {
    const run = await cli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('trigger <event> --forward-to <url>');
    expect(run.stdout).toContain('--port <n>');
  });
});

describe('command arguments', () => {
  it('takes the sandbox URL from --sandbox-url, else PAYMOUNT_SANDBOX_URL, else the default port', () => {
    const env = { PAYMOUNT_SANDBOX_URL: 'http://127.0.0.1:5000' };
    expect(parseCommandArgs('deliveries', ['--sandbox-url', 'https://localhost:4443'], env).sandboxUrl).toBe('https://localhost:4443');
    expect(parseCommandArgs('deliveries', [], env).sandboxUrl).toBe('http://127.0.0.1:5000');
    expect(parseCommandArgs('deliveries', [], {}).sandboxUrl).toBe('http://127.0.0.1:4010');
    expect(() => parseCommandArgs('deliveries', [], { PAYMOUNT_SANDBOX_URL: 'sandbox' })).toThrow(/^PAYMOUNT_SANDBOX_URL must be/);
  });

  it('maps trigger flags to the trigger request; --help needs nothing else', () => {
    expect(
      parseCommandArgs('trigger', ['refund.succeeded', '--forward-to', 'http://localhost:3000/w', '--amount', '1999', '--currency', 'GBP', '--reference-order-id', 'order-1'], {}),
    ).toEqual({
      command: 'trigger',
      help: false,
      json: false,
      sandboxUrl: 'http://127.0.0.1:4010',
      event: 'refund.succeeded',
      forwardTo: 'http://localhost:3000/w',
      amount: 1999,
      currency: 'GBP',
      referenceOrderId: 'order-1',
    });
    expect(parseCommandArgs('trigger', ['--help'], { PAYMOUNT_SANDBOX_URL: 'not a url' }).help).toBe(true);
  });
});
