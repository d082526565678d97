import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 30: the published declarations compile in a strict CommonJS app that has neither
// `esModuleInterop` nor `skipLibCheck`. zod's own typings default-import their locales, which such
// an app refuses (TS1259), so no main entry's declarations may import zod.

const root = join(import.meta.dirname, '../../..');
const tsc = join(root, 'node_modules/typescript/bin/tsc');

/** Every published package, by folder, and the entries an app imports from it. */
const ENTRIES: Record<string, string[]> = {
  core: ['@paymount/core', '@paymount/core/webhooks'],
  express: ['@paymount/express'],
  koa: ['@paymount/koa'],
  nestjs: ['@paymount/nestjs'],
  fastify: ['@paymount/fastify'],
  hono: ['@paymount/hono'],
  next: ['@paymount/next'],
  redis: ['@paymount/redis'],
  postgres: ['@paymount/postgres'],
  'deno-kv': ['@paymount/deno-kv'],
  cloudflare: ['@paymount/cloudflare'],
  bullmq: ['@paymount/bullmq'],
  sandbox: ['@paymount/sandbox'],
};

const STRICT = { strict: true, skipLibCheck: false, noEmit: true, target: 'es2022', types: ['node'] };

let app: string;

// The consumer sits under node_modules so that third-party typings (zod, express, ...) resolve from the
// repository's install, while its own node_modules holds the packed tarballs, as an install would.
beforeAll(() => {
  app = mkdtempSync(join(root, 'node_modules/.strict-cjs-app-'));
  const scope = join(app, 'node_modules/@paymount');
  mkdirSync(scope, { recursive: true });
  for (const folder of Object.keys(ENTRIES)) {
    const packageDir = join(root, 'packages', folder);
    const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', app], { cwd: packageDir, encoding: 'utf8' })) as [
      { filename: string },
    ];
    const target = join(scope, folder);
    mkdirSync(target);
    execFileSync('tar', ['-xzf', join(app, filename), '-C', target, '--strip-components=1']);
  }
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'strict-cjs-app', private: true, type: 'commonjs' }));
  const importing = (specifiers: string[]) =>
    `${specifiers.map((specifier, index) => `import * as entry${index} from ${JSON.stringify(specifier)};`).join('\n')}\nexport const entries = [${specifiers.map((_, index) => `entry${index}`).join(', ')}];\n`;
  writeFileSync(join(app, 'index.ts'), importing(Object.values(ENTRIES).flat()));
  // node10 reads no `exports`, so a subpath entry does not resolve there (engines require Node 20): the roots only.
  writeFileSync(join(app, 'roots.ts'), importing(Object.values(ENTRIES).map(([rootEntry]) => rootEntry!)));
}, 120_000);

afterAll(() => {
  if (app !== undefined && process.env.KEEP_APP === undefined) rmSync(app, { recursive: true, force: true });
});

/**
 * tsc's diagnostics, under `compilerOptions`, in the app's own file, in paymount's declarations and in
 * the typings those pull in of paymount's own dependencies (zod): '' when there is none. Errors inside
 * a framework's own typings (next without @types/react, the repository's @types/koa against its
 * content-disposition) are the framework's and the app's, not paymount's.
 */
function paymountErrors(name: string, file: string, compilerOptions: Record<string, unknown>): string {
  writeFileSync(join(app, name), JSON.stringify({ compilerOptions: { ...STRICT, ...compilerOptions }, files: [file] }));
  try {
    execFileSync(process.execPath, [tsc, '-p', name], { cwd: app, encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (error) {
    const output = (error as { stdout?: string }).stdout ?? String(error);
    return output
      .split('\n')
      .filter((line) => /^(index\.ts|roots\.ts|node_modules\/@paymount\/|\.\.\/zod\/)/.test(line))
      .join('\n');
  }
}

describe('the packed packages in a strict CommonJS app without esModuleInterop, skipLibCheck false', () => {
  // nodenext implies esModuleInterop, so zod's locales pass here; the classic settings below are the strict case.
  it('compile under module nodenext, every main entry', () => {
    expect(paymountErrors('tsconfig.nodenext.json', 'index.ts', { module: 'nodenext', moduleResolution: 'nodenext' })).toBe('');
  }, 120_000);

  const node10 = () => paymountErrors('tsconfig.node10.json', 'roots.ts', { module: 'commonjs', moduleResolution: 'node10' });
  let node10Errors: string | undefined;

  it('compile under module commonjs with node10 resolution, every root entry, but for zod', () => {
    node10Errors = node10();
    expect(node10Errors.split('\n').filter((line) => line !== '' && !line.startsWith('../zod/'))).toEqual([]);
  }, 120_000);

  // The request, option and attempt types are written out zod-free (packages/core/src/types), so no
  // root entry's declarations reach zod's typings, whose locales such an app refuses (TS1259).
  it('compile under module commonjs with node10 resolution, zod included', () => {
    expect(node10Errors ?? node10()).toBe('');
  }, 120_000);
});
