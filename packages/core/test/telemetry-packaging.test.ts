import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startSandbox, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The built package, loaded by a plain Node process from both module
 * systems: without @opentelemetry/api installed it loads and pays; with it,
 * and a tracer provider registered globally, the same call is traced (the CJS
 * build resolves the optional peer through its import.meta.url shim).
 */

const CORE = resolve(import.meta.dirname, '..');
const ROOT_MODULES = resolve(CORE, '../../node_modules');

let sandbox: Sandbox;
let appWithoutOtel: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  // An app whose node_modules hold core and its dependencies, and no @opentelemetry package.
  appWithoutOtel = mkdtempSync(join(tmpdir(), 'paymount-no-otel-'));
  const modules = join(appWithoutOtel, 'node_modules');
  mkdirSync(join(modules, '@paymount/core'), { recursive: true });
  cpSync(join(CORE, 'package.json'), join(modules, '@paymount/core/package.json'));
  cpSync(join(CORE, 'dist'), join(modules, '@paymount/core/dist'), { recursive: true });
  for (const dependency of ['zod', 'undici']) symlinkSync(join(ROOT_MODULES, dependency), join(modules, dependency), 'dir');
});
afterAll(async () => {
  await sandbox.close();
  rmSync(appWithoutOtel, { recursive: true, force: true });
});

/** One direct payment against the sandbox; prints whether the API resolves, the status, and the span names exported. */
function payScript(load: string, traced: boolean): string {
  return `
    ${load}
    let apiPresent = true;
    try { req.resolve('@opentelemetry/api'); } catch { apiPresent = false; }
    let exporter;
    if (${traced}) {
      const { trace } = req('@opentelemetry/api');
      const sdk = req('@opentelemetry/sdk-trace-base');
      exporter = new sdk.InMemorySpanExporter();
      trace.setGlobalTracerProvider(new sdk.BasicTracerProvider({ spanProcessors: [new sdk.SimpleSpanProcessor(exporter)] }));
    }
    const client = core.createPaymentClient(JSON.parse(process.env.CLIENT_OPTIONS));
    const result = await client.directPayment({
      referenceOrderId: 'order-packaged',
      amount: { orderAmount: 1999, priceCurrency: 'USD' },
      description: 'A packaged payment',
      cardEncryptedData: process.env.WALLET_TOKEN,
    });
    await client.close();
    const spans = exporter ? exporter.getFinishedSpans().map((span) => span.name) : [];
    process.stdout.write(JSON.stringify({ apiPresent, status: result.status, spans }));
  `;
}

const LOADERS = {
  commonjs: `const req = require; const core = require('@paymount/core'); (async () => {`,
  module: `import { createRequire } from 'node:module'; const req = createRequire(process.cwd() + '/'); const core = await import('@paymount/core'); {`,
} as const;

/** Asynchronous: the sandbox answering the child runs in this process. */
async function run(moduleSystem: keyof typeof LOADERS, cwd: string, traced: boolean) {
  const { clock: _clock, ...options } = sandbox.clientOptions();
  const script = `${payScript(LOADERS[moduleSystem], traced)}${moduleSystem === 'commonjs' ? '})();' : '}'}`;
  const { stdout } = await promisify(execFile)(process.execPath, [`--input-type=${moduleSystem}`, '-e', script], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_PATH: '', CLIENT_OPTIONS: JSON.stringify(options), WALLET_TOKEN: sandbox.mintWalletToken() },
  });
  return JSON.parse(stdout) as { apiPresent: boolean; status: string; spans: string[] };
}

describe.each(['commonjs', 'module'] as const)('the built package from %s', (moduleSystem) => {
  it('loads and pays without @opentelemetry/api installed', async () => {
    expect(await run(moduleSystem, appWithoutOtel, false)).toEqual({ apiPresent: false, status: 'succeeded', spans: [] });
  });

  it('traces the same call through the global tracer provider when the API is installed', async () => {
    expect(await run(moduleSystem, CORE, true)).toEqual({
      apiPresent: true,
      status: 'succeeded',
      spans: ['POST /v1/checkout/sale', 'paymount POST /v1/checkout/sale'],
    });
  });
});
