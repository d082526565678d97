import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertPackageExports, assertPackageLints, resolvedFile } from '../../../tools/packaging';

it('the built package loads from require() and import with its public names', () => {
  expect(() =>
    assertPackageExports('@paymount/core', import.meta.dirname, [
      'PaymentError',
      'PaymentValidationError',
      'PaymentApiError',
      'PaymentErrorCode',
      'PaymentRateLimitError',
      'PaymentNetworkError',
      'PaymentTimeoutError',
      'WebhookVerificationError',
      'WebhookPayloadError',
      'createRedactingLogger',
      'consoleLogger',
      'PaymentResponseError',
      'createPaymentClient',
      'toMinorUnits',
      'fromMinorUnits',
      'currencyExponent',
      'paymentStatusOf',
      'isSessionExpired',
      'buildWalletPaymentRequest',
      'verifyWebhook',
      'signWebhook',
      'signWebhookAsync',
      'MemoryIdempotencyStore',
      'ClaimLostError',
      'dedupeKeyOf',
      'createPaymentRoutes',
      'createNodeMiddleware',
      'createFetchHandler',
      'PaymentRouteError',
      'PaymentStoreUnavailableError',
      'MemoryOrderAttemptStore',
    ]),
  ).not.toThrow();
});

it('each subpath entry loads from require() and import with its public names', () => {
  const entries: Record<string, string[]> = {
    '@paymount/core/schemas': ['validate', 'amountSchema', 'checkoutSessionRequestSchema', 'paymentClientOptionsSchema', 'isPublicHostname'],
    '@paymount/core/http': ['readNodeBody', 'toNeutralRequest', 'writeNeutralResponse'],
    '@paymount/core/stores': ['isFinalState', 'isUnsettled', 'settledAttempt', 'orderAttemptSchema', 'ORDER_ATTEMPT_STATES', 'inEventCommit'],
    '@paymount/core/webhooks': [
      'verifyWebhook',
      'signWebhook',
      'signWebhookAsync',
      'dedupeKeyOf',
      'PAYMENT_EVENT_TYPES',
      'PaymentError',
      'WebhookVerificationError',
      'WebhookPayloadError',
    ],
  };
  for (const [specifier, names] of Object.entries(entries)) {
    expect(() => assertPackageExports(specifier, import.meta.dirname, names)).not.toThrow();
  }
});

it('an error thrown through a subpath entry is an instance of the root entry class, in CJS and ESM', () => {
  // The entries share chunks: with one bundle each, `validate` would throw its own copy of the class.
  const check = `(core, schemas) => { try { schemas.validate(schemas.amountSchema, {}, 'amount'); return 'no error'; }
    catch (error) { return error instanceof core.PaymentValidationError && error instanceof core.PaymentError; } }`;
  const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: import.meta.dirname, encoding: 'utf8' });
  expect(run(['--input-type=commonjs', '-e', `process.stdout.write(String((${check})(require('@paymount/core'), require('@paymount/core/schemas'))))`])).toBe('true');
  expect(
    run(['--input-type=module', '-e', `process.stdout.write(String((${check})(await import('@paymount/core'), await import('@paymount/core/schemas'))))`]),
  ).toBe('true');
});

it('a webhook refused through @paymount/core/webhooks is an instance of the root entry class, in CJS and ESM', () => {
  const check = `async (core, webhooks) => { try { await webhooks.verifyWebhook({ secret: 'whsec_0123456789abcdef', rawBody: '{}', headers: {} }); return 'no error'; }
    catch (error) { return error instanceof core.WebhookVerificationError && error instanceof core.PaymentError && error.code === core.PaymentErrorCode.WEBHOOK_MISSING_HEADER; } }`;
  const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: import.meta.dirname, encoding: 'utf8' });
  expect(
    run(['--input-type=commonjs', '-e', `(${check})(require('@paymount/core'), require('@paymount/core/webhooks')).then((r) => process.stdout.write(String(r)))`]),
  ).toBe('true');
  expect(
    run(['--input-type=module', '-e', `process.stdout.write(String(await (${check})(await import('@paymount/core'), await import('@paymount/core/webhooks'))))`]),
  ).toBe('true');
});

it('@paymount/core/webhooks loaded alone names the broken field and its rule in words (zod classic, whose locale words zod messages, is not loaded)', () => {
  const script = `
    const { signWebhook, verifyWebhook } = await import('@paymount/core/webhooks');
    const secret = 'whsec_0123456789abcdef';
    const delivery = signWebhook({ secret, payload: { transactionId: 5, amount: { orderAmount: '10' } } });
    try { await verifyWebhook({ secret, rawBody: delivery.body, headers: delivery.headers }); process.stdout.write('accepted'); }
    catch (error) { process.stdout.write(JSON.stringify({ message: error.message, issues: error.issues })); }`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: import.meta.dirname, encoding: 'utf8' });
  expect(JSON.parse(out)).toEqual({
    message: expect.stringContaining('(transactionId must be a string; amount.orderAmount must be a number)'),
    issues: [
      { path: 'transactionId', rule: 'type', message: 'must be a string' },
      { path: 'amount.orderAmount', rule: 'type', message: 'must be a number' },
    ],
  });
});

/**
 * Every module specifier a built file loads, following its own chunks: `chunkFile` maps a chunk's
 * specifier to its file (a declaration file names its chunks by their JavaScript's name).
 */
function loadedBy(file: string, chunkFile = (specifier: string) => specifier, seen = new Set<string>()): Set<string> {
  const specifiers = new Set<string>();
  const text = readFileSync(file, 'utf8');
  for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s*)["']([^"']+)["']/gm)) {
    if (!specifier!.startsWith('./')) specifiers.add(specifier!);
    else if (!seen.has(specifier!)) {
      seen.add(specifier!);
      for (const inner of loadedBy(`${dirname(file)}/${chunkFile(specifier!)}`, chunkFile, seen)) specifiers.add(inner);
    }
  }
  return specifiers;
}

const isZod = (specifier: string) => specifier === 'zod' || specifier.startsWith('zod/');

it('@paymount/core/webhooks loads neither undici nor any zod, on Node and on the web build, from import and require', () => {
  const packageDir = `${import.meta.dirname}/..`;
  for (const file of ['dist/webhooks.js', 'dist/webhooks.cjs', 'dist/web/webhooks.js', 'dist/web/webhooks.cjs', 'dist/edge/webhooks.js', 'dist/edge/webhooks.cjs']) {
    const loaded = [...loadedBy(`${packageDir}/${file}`)].sort();
    // The verifier runs hand-written checks of the webhook schemas' rules (webhooks/event-checks.ts), not zod.
    expect(loaded.filter((specifier) => specifier === 'undici' || isZod(specifier) || specifier === 'module'), file).toEqual([]);
  }
});

// Issue 30: zod's typings default-import their locales, which a CommonJS app without esModuleInterop
// refuses (TS1259); tests/readmes' strict-cjs-declarations test compiles such an app against the packed packages.
it("the root, http and webhooks entries' declarations import no zod; the schemas entry's do, since it exports schemas", () => {
  const packageDir = `${import.meta.dirname}/..`;
  const declarationOf = (specifier: string) => specifier.replace(/\.js$/, '.d.ts').replace(/\.cjs$/, '.d.cts');
  const zodIn = (file: string) => [...loadedBy(`${packageDir}/dist/${file}`, declarationOf)].filter(isZod).sort();
  for (const entry of ['index', 'http', 'webhooks']) {
    for (const extension of ['d.ts', 'd.cts']) expect(zodIn(`${entry}.${extension}`), `${entry}.${extension}`).toEqual([]);
  }
  expect(zodIn('schemas.d.ts')).toContain('zod/mini');
  expect(zodIn('schemas.d.cts')).toContain('zod/mini');
});

it('publint and Are The Types Wrong find no problem in the packed package', () => {
  expect(() => assertPackageLints(`${import.meta.dirname}/..`)).not.toThrow();
}, 120_000);

describe('export conditions pick the platform build', () => {
  const packageDir = `${import.meta.dirname}/..`;
  const web = ['worker', 'browser', 'bun', 'deno'];
  const entries = [
    ['@paymount/core', 'index'],
    ['@paymount/core/schemas', 'schemas'],
    ['@paymount/core/http', 'http'],
    ['@paymount/core/stores', 'stores'],
    ['@paymount/core/webhooks', 'webhooks'],
  ] as const;
  // What each resolver adds on its own: Bun and Deno also match `node`, workerd's bundler `worker`, Next's edge `browser`.
  // workerd and the edge runtime, which forbid code generation, take the edge build: the web build without zod's compiler.
  const cases: Array<[string, string[], 'web' | 'edge' | 'node']> = [
    // [condition, the conditions active, the build expected]
    ...web.map((condition): [string, string[], 'web'] => [condition, [condition, 'node'], 'web']),
    ['workerd', ['workerd', 'worker', 'browser', 'node'], 'edge'],
    ['edge-light', ['edge-light', 'browser', 'node'], 'edge'],
    ['node', ['node'], 'node'],
    ['default', [], 'web'],
  ];

  it.each(cases)('the %s condition resolves every entry to its build (%j), from import and require', async (_label, conditions, build) => {
    for (const [specifier, name] of entries) {
      for (const [kind, extension] of [['import', 'js'], ['require', 'cjs']] as const) {
        const file = await resolvedFile(specifier, packageDir, conditions, kind);
        expect(relative(packageDir, file)).toBe(`dist/${build === 'node' ? '' : `${build}/`}${name}.${extension}`);
      }
    }
  });

  it.each(['web', 'edge'])('the %s build imports nothing of Node or undici', (build) => {
    const files = readdirSync(`${packageDir}/dist/${build}`).filter((file) => /\.c?js$/.test(file));
    expect(files.length).toBeGreaterThan(4);
    const nodeImport = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["'](node:[^"']+|undici|module|crypto|net|tls|http|diagnostics_channel)["']/;
    for (const file of files) expect(readFileSync(`${packageDir}/dist/${build}/${file}`, 'utf8')).not.toMatch(nodeImport);
  });

  it("the web build compiles its schemas with zod's compiler, the edge build never calls it", () => {
    const compiles = (build: string) =>
      readdirSync(`${packageDir}/dist/${build}`).some((file) => /\.js$/.test(file) && /\.compile\(/.test(readFileSync(`${packageDir}/dist/${build}/${file}`, 'utf8')));
    expect([compiles('web'), compiles('edge')]).toEqual([true, false]);
  });

  it('plain Node takes the Node build', () => {
    const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: import.meta.dirname, encoding: 'utf8' });
    expect(run(['--input-type=commonjs', '-e', "process.stdout.write(require.resolve('@paymount/core'))"])).toMatch(/\/dist\/index\.cjs$/);
    expect(run(['--input-type=module', '-e', "process.stdout.write(import.meta.resolve('@paymount/core'))"])).toMatch(/\/dist\/index\.js$/);
  });
});

// @opentelemetry/api is an optional peer: an app without it compiles the public declarations with
// skipLibCheck off (tests/fresh-apps), so only the internal entry's own file may import it (a shared
// chunk would reach the public entries too). Import statements are read, not the JSDoc that shows one.
it("no declaration file but the internal entry's imports @opentelemetry/api, an optional peer", () => {
  const dist = `${import.meta.dirname}/../dist`;
  const importing = readdirSync(dist)
    .filter((file) => /\.d\.c?ts$/.test(file) && !file.startsWith('internal.'))
    .filter((file) => /^import\b[^\n]*['"]@opentelemetry\//m.test(readFileSync(`${dist}/${file}`, 'utf8')));
  expect(importing).toEqual([]);
  expect(readFileSync(`${dist}/internal.d.ts`, 'utf8')).toMatch(/^import\b[^\n]*'@opentelemetry\/api'/m);
});
