import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { parseCliArgs } from '../src/cli-args';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Printed {
  url: string;
  dashboard: string;
  appId: string;
  merchantId: string;
  testApiKey: string;
  productionApiKey: string;
  webhookSecret: string;
  gatewayId: string;
  caFile?: string;
}

/** Starts the built CLI and resolves with the JSON line it prints once listening. */
function startCli(args: string[]): Promise<{ child: ChildProcess; printed: Printed; exited: Promise<number | null> }> {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build -w @paymount/sandbox` first');
  const child = spawn(process.execPath, [CLI, '--port', '0', '--json', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve({ child, printed: JSON.parse(line) as Printed, exited }));
    void exited.then((code) => reject(new Error(`the CLI exited (${code}) before printing its URL`)));
  });
}

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

function createSession(printed: Printed, dispatcher?: Agent) {
  return request(`${printed.url}/v1/checkout/create-session`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${printed.testApiKey}`,
      'content-type': 'application/json',
      'x-client-request-id': `cli-${Date.now()}`,
      'x-timestamp': String(Date.now()),
    },
    body: JSON.stringify({
      appId: printed.appId,
      merchantId: printed.merchantId,
      transactionRequestId: `cli_${Date.now()}`,
      referenceOrderId: 'order_cli_1',
      amount: { orderAmount: 1000, priceCurrency: 'EUR' },
      description: 'CLI check',
    }),
    ...(dispatcher ? { dispatcher } : {}),
  });
}

describe('paymount-sandbox CLI', () => {
  it('prints its URL and credentials, serves the API, and stops cleanly on SIGINT', async () => {
    const { child, printed, exited } = await startCli([]);
    expect(printed.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(printed.dashboard).toBe(`${printed.url}/sandbox/dashboard`);
    expect((await request(printed.dashboard)).statusCode).toBe(200);
    expect(printed.testApiKey).not.toBe(printed.productionApiKey);
    const res = await createSession(printed);
    expect(((await res.body.json()) as { code: string }).code).toBe('0');
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('with --https writes the certificate to a file a client can trust, and stops on SIGTERM', async () => {
    const certFile = join(tmpdir(), `paymount-cli-test-${process.pid}.pem`);
    try {
      const { child, printed, exited } = await startCli(['--https', '--cert-file', certFile, '--test-api-key', 'sk_test_fixed_for_cli']);
      expect(printed.url.startsWith('https://')).toBe(true);
      expect(printed.caFile).toBe(certFile);
      expect(printed.testApiKey).toBe('sk_test_fixed_for_cli');
      const dispatcher = new Agent({ connect: { ca: readFileSync(certFile, 'utf8') } });
      const res = await createSession(printed, dispatcher);
      expect(((await res.body.json()) as { code: string }).code).toBe('0');
      await dispatcher.close();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      rmSync(certFile, { force: true });
    }
  });

  it('with --https alone writes the certificate into a private temporary directory (0700, file 0600) and removes it on stop', async () => {
    const { child, printed, exited } = await startCli(['--https']);
    const caFile = printed.caFile ?? '';
    expect(dirname(caFile).startsWith(join(tmpdir(), 'paymount-sandbox-'))).toBe(true);
    expect(statSync(dirname(caFile)).mode & 0o777).toBe(0o700);
    expect(lstatSync(caFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(caFile, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(dirname(caFile))).toBe(false);
  });

  it('never writes the certificate through a symlink planted at its path, chosen or predictable', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'paymount-cli-symlink-'));
    const victim = join(scratch, 'victim.txt');
    writeFileSync(victim, 'precious');
    // The path the CLI used to write to by default: anyone on the machine could plant a link there first.
    const port = await freePort();
    const predictable = join(tmpdir(), `paymount-sandbox-${port}.pem`);
    const chosen = join(scratch, 'sandbox.pem');
    symlinkSync(victim, chosen);
    rmSync(predictable, { force: true });
    symlinkSync(victim, predictable);
    try {
      const run = async (args: string[]) => {
        const { child, printed, exited } = await startCli(['--https', ...args]);
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
        return printed;
      };
      expect((await run(['--cert-file', chosen])).caFile).toBe(chosen);
      expect(lstatSync(chosen).isSymbolicLink()).toBe(false);
      expect(lstatSync(chosen).mode & 0o777).toBe(0o600);
      expect(readFileSync(chosen, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);
      await run(['--port', String(port)]);
      expect(readFileSync(victim, 'utf8')).toBe('precious');
      expect(lstatSync(predictable).isSymbolicLink()).toBe(true);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
      rmSync(predictable, { force: true });
    }
  });

  it('exits with status 1, listening no more, when --https cannot write its certificate file', async () => {
    const certFile = join(tmpdir(), `paymount-cli-no-such-dir-${process.pid}`, 'sandbox.pem');
    const child = spawn(process.execPath, [CLI, '--port', '0', '--https', '--cert-file', certFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain(certFile);
  });

  it('exits with status 2 and the usage on a bad flag', async () => {
    const child = spawn(process.execPath, [CLI, '--rate-limit', 'lots'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('--rate-limit must be');
    expect(stderr).toContain('Usage: paymount-sandbox');
  });
});

describe('CLI arguments', () => {
  it('maps every flag to a sandbox option', () => {
    const settings = parseCliArgs([
      '--port', '4011', '--host', '127.0.0.1', '--https', '--allow-local-notify-url', '--wallet-origin', 'https://shop.dev.example',
      '--rate-limit', '5/2000', '--ip-allow', '127.0.0.1', '--ip-allow', '10.0.0.0/8',
      '--webhook-retry-delays', '10,20,40', '--webhook-timeout', '500', '--app-id', 'app_fixed', '--gateway-id', 'gw',
      '--merchant-name', 'Mug Shop',
    ]);
    expect(settings.options).toEqual({
      port: 4011,
      host: '127.0.0.1',
      https: true,
      allowLocalNotifyUrl: true,
      walletOrigins: ['https://shop.dev.example'],
      credentials: { appId: 'app_fixed', gatewayId: 'gw' },
      rateLimit: { limit: 5, windowMs: 2000 },
      ipAllowList: ['127.0.0.1', '10.0.0.0/8'],
      webhookRetryDelaysMs: [10, 20, 40],
      webhookTimeoutMs: 500,
      merchantName: 'Mug Shop',
    });
    expect(parseCliArgs(['--rate-limit', 'off']).options.rateLimit).toBe(false);
    expect(parseCliArgs([]).options.port).toBe(4010);
  });

  it.each([
    [['--port', '70000'], /--port/],
    [['--port', '-1'], /--port/],
    [['--webhook-retry-delays', '1,x'], /--webhook-retry-delays/],
    [['--unknown'], /unknown/i],
  ])('refuses %j', (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(message);
  });
});
