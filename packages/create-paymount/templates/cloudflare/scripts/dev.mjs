// @ts-check
// The shop offline, on Node: the payment service's sandbox (@paymount/sandbox, a Node package) and
// `wrangler dev` serving the Worker, pointed at it. `npm start` (scripts/start.mjs) and the tests run it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '@paymount/sandbox';

const WRANGLER = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js');
/** Limits for a hang, not a verdict: wrangler builds and workerd starts in seconds, slower on a busy machine. */
const STEP_LIMIT_MS = 180_000;

/**
 * @typedef {object} DevOptions
 * @property {number} port where `wrangler dev` listens, on 127.0.0.1
 * @property {string} [persistTo] where the local D1 database and Durable Objects live (default `.wrangler/state`)
 * @property {import('@paymount/sandbox').SandboxOptions} [sandbox] the sandbox's own options
 * @property {boolean} [quiet] keep wrangler's output to `output()` (tests) instead of this process's
 * @property {(shop: { url: string, sandbox: import('@paymount/sandbox').Sandbox }) => void} [onServing] called as
 *   `wrangler dev` starts: whoever waits for the shop to answer finds what is said about it already said
 */

/**
 * @typedef {object} RunningDev
 * @property {string} url where the shop answers
 * @property {import('@paymount/sandbox').Sandbox} sandbox
 * @property {() => string} output what wrangler wrote, when quiet
 * @property {() => Promise<void>} close
 */

/** @param {string[]} args */
function wrangler(args) {
  // stdin ignored: wrangler asks nothing (its D1 migration prompt, its dev session's keys) without a terminal.
  // Its output through this process: wrangler stops on SIGTERM only while it can write, so never to a closed pipe.
  return spawn(process.execPath, [WRANGLER, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Offline: no usage report, and workerd's `request.cf` placeholder rather than a fetch of Cloudflare's.
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', NO_COLOR: '1' },
  });
}

/**
 * Starts the sandbox, applies the D1 migrations locally, then `wrangler dev` with the sandbox's
 * address and test credentials as the Worker's settings; resolves once the shop answers.
 * @param {DevOptions} options
 * @returns {Promise<RunningDev>}
 */
export async function startDev({ port, persistTo, sandbox: sandboxOptions, quiet = false, onServing }) {
  const url = `http://127.0.0.1:${port}`;
  const sandbox = await startSandbox({ allowLocalNotifyUrl: true, merchantName: 'Paymount shop', ...sandboxOptions });
  // The settings go in a file only this user reads, never on wrangler's command line (which `ps` shows).
  const secrets = mkdtempSync(join(tmpdir(), 'paymount-shop-'));
  const envFile = join(secrets, '.env');
  const settings = {
    PUBLIC_URL: url,
    PAYMOUNT_SANDBOX_URL: sandbox.url,
    PAYMENT_BASE_URL: sandbox.url,
    PAYMENT_API_KEY: sandbox.testApiKey,
    PAYMENT_APP_ID: sandbox.appId,
    PAYMENT_MERCHANT_ID: sandbox.merchantId,
    PAYMENT_WEBHOOK_SECRET: sandbox.webhookSecret,
    PAYMENT_GATEWAY_ID: sandbox.gatewayId,
  };
  writeFileSync(envFile, Object.entries(settings).map(([name, value]) => `${name}=${value}\n`).join(''), { mode: 0o600 });
  const persist = persistTo === undefined ? [] : ['--persist-to', persistTo];
  let output = '';
  /** @param {import('node:child_process').ChildProcessByStdio<null, import('node:stream').Readable, import('node:stream').Readable>} child */
  const capture = (child) => {
    for (const [from, to] of /** @type {const} */ ([[child.stdout, process.stdout], [child.stderr, process.stderr]])) {
      from.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => {
        if (quiet) output += chunk;
        else to.write(chunk);
      });
    }
  };

  /** @type {import('node:child_process').ChildProcessByStdio<null, import('node:stream').Readable, import('node:stream').Readable> | undefined} */
  let dev;
  const close = async () => {
    if (dev && dev.exitCode === null && dev.signalCode === null) {
      const exited = once(dev, 'exit');
      dev.kill('SIGTERM');
      await exited;
    }
    await sandbox.close();
    rmSync(secrets, { recursive: true, force: true });
  };
  try {
    const migrate = wrangler(['d1', 'migrations', 'apply', 'DB', '--local', ...persist]);
    capture(migrate);
    const [code] = await once(migrate, 'exit');
    if (code !== 0) throw new Error(`wrangler d1 migrations apply failed (exit code ${code})${quiet ? `:\n${output}` : ''}`);

    onServing?.({ url, sandbox });
    dev = wrangler(['dev', '--ip', '127.0.0.1', '--port', String(port), '--env-file', envFile, '--show-interactive-dev-session=false', ...persist]);
    capture(dev);
    const deadline = Date.now() + STEP_LIMIT_MS;
    for (;;) {
      if (dev.exitCode !== null || dev.signalCode !== null) throw new Error(`wrangler dev stopped (${dev.exitCode ?? dev.signalCode}) before serving${quiet ? `:\n${output}` : ''}`);
      const answer = await fetch(url, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
      if (answer?.ok) break;
      if (Date.now() > deadline) throw new Error(`wrangler dev did not serve ${url} within ${STEP_LIMIT_MS} ms${quiet ? `:\n${output}` : ''}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return { url, sandbox, output: () => output, close };
  } catch (error) {
    await close();
    throw error;
  }
}
