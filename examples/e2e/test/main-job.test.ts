import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface StartedShop {
  child: ChildProcess;
  output: () => string;
  shopUrl: string;
  sandboxUrl: string;
}

const children: ChildProcess[] = [];

/**
 * A test that starts a shop (npm, tsx, PGlite opening its folder) and pays an
 * order: under 10 s on an idle machine, over 60 s once beside two other CI
 * runs (a load average near 20).
 */
const SHOP_TEST_LIMIT_MS = 180_000;
/** How long the shop's handler may take to record a payment after the wallet call is answered: the webhook's delivery, on a loaded machine. */
const RECORDED_WITHIN_MS = 30_000;

afterEach(() => {
  // Only reached with a child still running when a test failed half-way.
  for (const child of children.splice(0)) if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
});

/** `npm run start -w <workspace>` as a user runs it, in its own process group, on a free port; `extraEnv` beside the user's environment. */
async function startShop(workspace: string, extraEnv: Record<string, string> = {}): Promise<StartedShop> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PAYMENT_') && name !== 'DATABASE_URL'));
  const child = spawn('npm', ['run', 'start', '-w', workspace], {
    cwd: ROOT,
    env: { ...env, PORT: '0', HOST: '127.0.0.1', ...extraEnv },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let text = '';
  const started = new Promise<{ shopUrl: string; sandboxUrl: string }>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const shopUrl = /Open (http:\/\/\S+)\/ in your browser/.exec(text)?.[1];
      const sandboxUrl = /embedded sandbox at (http:\/\/\S+) /.exec(text)?.[1];
      if (shopUrl && sandboxUrl) resolve({ shopUrl, sandboxUrl });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the shop exited (${code}) before printing its URL:\n${text}`)));
  });
  return { child, output: () => text, ...(await started) };
}

async function json(response: Response): Promise<Record<string, unknown>> {
  expect(response.ok, `${response.url} answered ${response.status}`).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}

/** A wallet payment over plain HTTP, as the shop's page makes it, then the payment's status once the webhook settled the order. */
async function payOrderWithWallet({ shopUrl, sandboxUrl }: StartedShop): Promise<{ orderId: string; status: string }> {
  const placed = await fetch(`${shopUrl}/orders`, { method: 'POST', body: new URLSearchParams({ sku: 'mug' }), redirect: 'manual' });
  expect(placed.status).toBe(303);
  const orderId = placed.headers.get('location')?.replace('/orders/', '') ?? '';
  const request = await json(await fetch(`${shopUrl}/payments/wallet/config?orderId=${orderId}`));
  const method = (request['allowedPaymentMethods'] as Array<{ tokenizationSpecification: { parameters: object } }>)[0];
  const minted = await json(
    await fetch(`${sandboxUrl}/sandbox/wallet-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(method?.tokenizationSpecification.parameters),
    }),
  );
  const paid = await json(
    await fetch(`${shopUrl}/payments/wallet/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, token: minted['token'] }),
    }),
  );
  expect(paid['status']).toBe('succeeded');
  // The shop's handler has recorded the payment once the order is no longer payable.
  for (const giveUpAt = Date.now() + RECORDED_WITHIN_MS; Date.now() < giveUpAt; ) {
    const { status, payable } = await json(await fetch(`${shopUrl}/payments/status?orderId=${orderId}`));
    if (payable === false) return { orderId, status: String(status) };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { orderId, status: 'still payable' };
}

async function stop(shop: StartedShop, signal: NodeJS.Signals, to: 'group' | 'npm'): Promise<number | null> {
  const exited = once(shop.child, 'exit') as Promise<[number | null]>;
  const pid = shop.child.pid ?? 0;
  // Ctrl-C in a terminal signals the whole foreground group; a process manager signals npm alone.
  process.kill(to === 'group' ? -pid : pid, signal);
  const [code] = await exited;
  return code;
}

describe('the main job: npm start runs a shop on the embedded sandbox', () => {
  it.each([
    ['@paymount/example-express-shop', 'SIGINT', 'Express shop', 'group'],
    ['@paymount/example-koa-shop', 'SIGTERM', 'Koa shop', 'npm'],
    ['@paymount/example-nest-shop', 'SIGTERM', 'NestJS shop', 'npm'],
  ] as const)('%s prints its URL, takes a payment and stops cleanly on %s', async (workspace, signal, name, to) => {
    const shop = await startShop(workspace);
    const home = await fetch(`${shop.shopUrl}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain(name);
    expect((await payOrderWithWallet(shop)).status).toBe('succeeded');

    expect(await stop(shop, signal, to)).toBe(0);
    expect(shop.output()).toContain(`${signal}: stopping ${name}`);
    // Nothing is left listening: neither the shop nor its embedded sandbox.
    await expect(fetch(`${shop.shopUrl}/`)).rejects.toThrow();
    await expect(fetch(`${shop.sandboxUrl}/sandbox/clock`)).rejects.toThrow();
  }, SHOP_TEST_LIMIT_MS);
});

describe('npm start keeps the orders: PGlite in the shop’s data folder, by default', () => {
  it('an order paid before a restart is still paid after it, and its page says so', async () => {
    const before = await startShop('@paymount/example-express-shop');
    const { orderId, status } = await payOrderWithWallet(before);
    expect(status).toBe('succeeded');
    expect(before.output()).toMatch(/Orders are kept in PGlite in .*express-shop\/data/);
    expect(await stop(before, 'SIGINT', 'group')).toBe(0);

    const after = await startShop('@paymount/example-express-shop');
    try {
      const page = await fetch(`${after.shopUrl}/orders/${orderId}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Payment received. Thank you!');
      // The payment routes read the order from the same table: a paid order takes no second payment.
      expect(await json(await fetch(`${after.shopUrl}/payments/status?orderId=${orderId}`))).toMatchObject({ payable: false });
    } finally {
      expect(await stop(after, 'SIGTERM', 'npm')).toBe(0);
    }
  }, 2 * SHOP_TEST_LIMIT_MS);
});

describe("the sandbox's start-up banner in a clone of the repository", () => {
  it('prints a trigger command that runs as printed from the clone: the test webhook reaches the shop, 200, exit 0', async () => {
    // A developer's terminal: the sandbox announces itself outside test and production.
    const shop = await startShop('@paymount/example-express-shop', { NODE_ENV: 'development' });
    try {
      const printed = /send a test webhook: (.+)/.exec(shop.output())?.[1];
      expect(printed).toMatch(/^npx paymount-sandbox trigger payment\.succeeded --forward-to <your webhook URL> --sandbox-url /);
      const [command = '', ...args] = printed!.replace('<your webhook URL>', `${shop.shopUrl}/payments/webhook`).split(' ');
      // The command as a developer pastes it at the clone's root, where no package installs the sandbox's bin.
      const { stdout } = await promisify(execFile)(command, args, { cwd: ROOT, env: { ...process.env, NODE_ENV: 'development' } });
      expect(stdout).toMatch(/delivered/);
      expect(stdout).toMatch(/\b200\b/);
    } finally {
      expect(await stop(shop, 'SIGINT', 'group')).toBe(0);
    }
    // The shop's start and a second Node process for the command.
  }, SHOP_TEST_LIMIT_MS);
});
