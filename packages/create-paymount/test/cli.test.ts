import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { invokingPackageManager, parseCli, UsageError } from '../src/args';
import { create, type CreateIo } from '../src/create';
import { knownFrameworks, packageNameFor, scaffold, ScaffoldError } from '../src/scaffold';

const root = mkdtempSync(join(tmpdir(), 'create-paymount-cli-'));
afterAll(() => rm(root, { recursive: true, force: true }));

let made = 0;
const fresh = (name = `shop-${++made}`) => join(root, name);

function io(ask?: CreateIo['ask']) {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (line: string) => out.push(line), err: (line: string) => err.push(line), ask, env: {}, cwd: root } satisfies CreateIo };
}

const { version, devDependencies: versions } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string; devDependencies: Record<string, string> };

describe('parseCli', () => {
  it('reads the folder and every flag', () => {
    expect(parseCli(['my-shop', '--framework', 'express', '--packages', './tgz', '--no-install', '--package-manager', 'pnpm'])).toEqual({
      dir: 'my-shop',
      framework: 'express',
      packages: './tgz',
      install: false,
      packageManager: 'pnpm',
      database: undefined,
      databaseUrl: undefined,
      help: false,
    });
    expect(parseCli(['my-shop', '-f', 'express'])).toMatchObject({ install: true, packageManager: undefined, packages: undefined });
  });

  it('reads where orders live: a database URL names postgres on its own', () => {
    expect(parseCli(['a', '--database', 'pglite'])).toMatchObject({ database: 'pglite', databaseUrl: undefined });
    expect(parseCli(['a', '--database', 'postgres'])).toMatchObject({ database: 'postgres', databaseUrl: undefined });
    expect(parseCli(['a', '--database-url', 'postgres://shop:pw@db:5432/shop'])).toMatchObject({ database: 'postgres', databaseUrl: 'postgres://shop:pw@db:5432/shop' });
  });

  it('refuses an unknown database, a URL beside pglite, and a URL that is not PostgreSQL\'s, without repeating it', () => {
    expect(() => parseCli(['a', '--database', 'mysql'])).toThrow('--database must be one of pglite, postgres, not "mysql"');
    expect(() => parseCli(['a', '--database', 'pglite', '--database-url', 'postgres://db/shop'])).toThrow('--database-url names a PostgreSQL server: it goes with --database postgres, not pglite');
    expect(() => parseCli(['a', '--database-url', 'mysql://shop:secret@db/shop'])).toThrow(new UsageError('the database URL is not a postgres:// or postgresql:// URL'));
  });

  it('refuses an unknown flag, a second folder and an unknown package manager', () => {
    expect(() => parseCli(['a', '--frame', 'express'])).toThrow(UsageError);
    expect(() => parseCli(['a', 'b'])).toThrow('one folder only, not 2: a, b');
    expect(() => parseCli(['a', '--package-manager', 'pip'])).toThrow('--package-manager must be one of npm, pnpm, yarn, bun, not "pip"');
  });

  it('knows the package manager `npm create` and its peers ran it with', () => {
    expect(invokingPackageManager('pnpm/9.1.0 npm/? node/v20.19.0 linux x64')).toBe('pnpm');
    expect(invokingPackageManager('bun/1.2.0')).toBe('bun');
    expect(invokingPackageManager(undefined)).toBeUndefined();
  });
});

describe('scaffold', () => {
  it('writes the shared files and the framework\'s, .gitignore from _gitignore, the name from the folder, each @paymount/* at the release published with it', () => {
    const dir = fresh('My Shop');
    const result = scaffold({ dir, framework: 'express', versions });
    expect(result.name).toBe('my-shop');
    expect(result.files).toEqual(expect.arrayContaining(['.env.example', '.gitignore', 'package.json', 'tsconfig.json', 'src/app.ts', 'src/main.ts', 'src/payments.ts', 'public/shop.js', 'test/shop.test.ts']));
    expect(result.files).not.toContain('_gitignore');
    expect(readdirSync(dir).sort()).toEqual(['.env.example', '.gitignore', 'README.md', 'package.json', 'public', 'src', 'test', 'tsconfig.json', 'vitest.config.ts']);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string> };
    expect(manifest.name).toBe('my-shop');
    const paymount = Object.entries(manifest.dependencies).filter(([name]) => name.startsWith('@paymount/'));
    expect(paymount.map(([name]) => name)).toEqual(['@paymount/browser', '@paymount/core', '@paymount/express', '@paymount/postgres', '@paymount/sandbox']);
    expect(paymount).toEqual(paymount.map(([name]) => [name, versions[name]]));
    expect(manifest.dependencies['express']).toMatch(/^\^5\./);
  });

  it('points @paymount/* at the tarballs of --packages', () => {
    const tarballs = fresh();
    mkdirSync(tarballs);
    for (const name of ['browser', 'core', 'express', 'postgres', 'sandbox', 'koa']) writeFileSync(join(tarballs, `paymount-${name}-${version}.tgz`), '');
    const dir = fresh();
    scaffold({ dir, framework: 'express', versions, packages: tarballs });
    const { dependencies } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(dependencies['@paymount/core']).toBe(`file:${join(tarballs, `paymount-core-${version}.tgz`)}`);
    expect(dependencies['@paymount/express']).toBe(`file:${join(tarballs, `paymount-express-${version}.tgz`)}`);
  });

  it('refuses --packages without a tarball the template needs, writing nothing', () => {
    const tarballs = fresh();
    mkdirSync(tarballs);
    writeFileSync(join(tarballs, `paymount-core-${version}.tgz`), '');
    const dir = fresh();
    expect(() => scaffold({ dir, framework: 'express', versions, packages: tarballs })).toThrow(
      new ScaffoldError(`--packages ${tarballs} has no tarball of @paymount/browser (paymount-browser-<version>.tgz); run npm pack -w @paymount/browser --pack-destination ${tarballs}`),
    );
    expect(existsSync(dir)).toBe(false);
  });

  it('writes a PostgreSQL URL to .env, readable by its owner only, the .env.example untouched', () => {
    const dir = fresh();
    const url = 'postgresql://shop:p%40ss@db.internal:6432/shop?sslmode=require';
    expect(scaffold({ dir, framework: 'express', versions, databaseUrl: url }).files).toContain('.env');
    expect(parseEnv(readFileSync(join(dir, '.env'), 'utf8'))).toEqual({ DATABASE_URL: url });
    expect(statSync(join(dir, '.env')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, '.env.example'), 'utf8')).toMatch(/^DATABASE_URL=$/m);
    expect(existsSync(join(fresh(), '.env'))).toBe(false);
  });

  it('refuses a database URL a .env file would read otherwise, writing nothing', () => {
    const dir = fresh();
    expect(() => scaffold({ dir, framework: 'express', versions, databaseUrl: 'postgres://shop:a#b@db/shop' })).toThrow(ScaffoldError);
    expect(existsSync(dir)).toBe(false);
  });

  it('with --packages, points pnpm, yarn and bun at the tarballs for the packages that ask for each other; npm needs nothing', () => {
    const tarballs = fresh();
    mkdirSync(tarballs);
    for (const name of ['browser', 'core', 'express', 'postgres', 'sandbox']) writeFileSync(join(tarballs, `paymount-${name}-${version}.tgz`), '');
    const manifestFor = (packageManager: 'npm' | 'pnpm' | 'yarn' | 'bun') => {
      const dir = fresh();
      scaffold({ dir, framework: 'express', versions, packages: tarballs, packageManager });
      return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown> & { dependencies: Record<string, string> };
    };
    const { dependencies } = manifestFor('npm');
    const pinned = Object.fromEntries(Object.entries(dependencies).filter(([name]) => name.startsWith('@paymount/')));
    expect(Object.keys(pinned)).toHaveLength(5);
    expect(Object.keys(manifestFor('npm'))).not.toEqual(expect.arrayContaining(['overrides']));
    expect(manifestFor('pnpm')['pnpm']).toEqual({ overrides: pinned });
    expect(manifestFor('yarn')['resolutions']).toEqual(pinned);
    expect(manifestFor('bun')['overrides']).toEqual(pinned);
    // From the registry, the ranges meet by themselves.
    const dir = fresh();
    scaffold({ dir, framework: 'express', versions, packageManager: 'pnpm' });
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).not.toHaveProperty('pnpm');
  });

  it("lays a template's layers in its template.json's order, and its own files over them", () => {
    const templates = fresh();
    const files = [
      ['shared/README.md', 'shared'],
      ['shared/src/a.ts', 'shared a'],
      ['shared/src/b.ts', 'shared b'],
      ['server/src/b.ts', 'server b'],
      ['server/src/c.ts', 'server c'],
      ['other/src/d.ts', 'other d'],
      ['one/src/a.ts', 'one a'],
      ['one/package.json', '{"name":"x"}'],
      ['one/template.json', '{"layers":["shared","server"]}'],
      ['two/template.json', '{"layers":["shared/src/a.ts","server/src/c.ts"]}'],
    ] as const;
    for (const [path, text] of files) {
      mkdirSync(join(templates, path, '..'), { recursive: true });
      writeFileSync(join(templates, path), text);
    }
    const dir = fresh();
    expect(scaffold({ dir, framework: 'one', versions, templatesDir: templates }).files).toEqual(['README.md', 'package.json', 'src/a.ts', 'src/b.ts', 'src/c.ts']);
    expect(['src/a.ts', 'src/b.ts'].map((path) => readFileSync(join(dir, path), 'utf8'))).toEqual(['one a', 'server b']);
    // A layer `folder/path` is that one file of the folder.
    expect(scaffold({ dir: fresh(), framework: 'two', versions, templatesDir: templates }).files).toEqual(['src/a.ts', 'src/c.ts']);
    // A folder without a template.json is a layer, not a framework.
    expect(knownFrameworks(templates)).toEqual(['one', 'two']);
  });

  it('names npm packages after any folder', () => {
    expect(packageNameFor('/tmp/Café Shop!')).toBe('caf-shop');
    expect(packageNameFor('/tmp/.hidden')).toBe('hidden');
  });
});

describe('create-paymount', () => {
  it('refuses a folder that is not empty, naming it and the rule: exit 1, nothing written', async () => {
    const dir = fresh();
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const run = io();
    expect(await create([dir, '--framework', 'express', '--no-install'], run.io)).toBe(1);
    expect(run.err[0]).toBe(`create-paymount: ${dir} is not empty (notes.txt); the shop is written only into a new or empty folder, so nothing of yours is overwritten`);
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });

  it('refuses an unknown framework, listing the known ones', async () => {
    const run = io();
    const dir = fresh();
    expect(await create([dir, '--framework', 'rails', '--no-install'], run.io)).toBe(1);
    expect(run.err[0]).toBe(`create-paymount: there is no "rails" template; the frameworks are: ${knownFrameworks().join(', ')}`);
    expect(existsSync(dir)).toBe(false);
  });

  it('without a terminal, asks nothing: a missing framework is an error', async () => {
    const run = io();
    expect(await create([fresh()], run.io)).toBe(1);
    expect(run.err[0]).toBe(`create-paymount: name the framework with --framework (${knownFrameworks().join(', ')})`);
  });

  it('on a terminal, asks for what the flags left out', async () => {
    const questions: string[] = [];
    const dir = fresh('asked');
    const url = 'postgres://shop:s3cret@db.internal:5432/shop';
    const answers: Record<string, string> = { 'Folder for the shop': dir, Framework: 'express', 'Package manager': 'yarn', 'Where orders live': 'postgres', 'PostgreSQL URL (postgres://user:password@host:5432/shop)': url };
    const run = io(async (question) => {
      questions.push(question);
      return answers[question]!;
    });
    expect(await create(['--no-install'], run.io)).toBe(0);
    expect(questions).toEqual(['Folder for the shop', 'Framework', 'Package manager', 'Where orders live', 'PostgreSQL URL (postgres://user:password@host:5432/shop)']);
    expect(parseEnv(readFileSync(join(dir, '.env'), 'utf8'))['DATABASE_URL']).toBe(url);
    expect(run.out).toContain('Its orders live on your PostgreSQL server: DATABASE_URL is in its .env, which git ignores.');
    expect([...run.out, ...run.err].join('\n')).not.toContain('s3cret');
    expect(run.out).toContain('  yarn install');
    expect(run.out).toContain('  yarn start   # the shop on the embedded sandbox: it prints the shop\'s and the dashboard\'s URLs');
  });

  it('refuses an answer that is not one of the choices', async () => {
    const run = io(async (question) => (question === 'Package manager' ? 'pnpn' : 'express'));
    expect(await create([fresh(), '--no-install'], run.io)).toBe(1);
    expect(run.err[0]).toBe('create-paymount: Package manager: one of npm, pnpm, yarn, bun, not "pnpn"');
  });

  it('without a terminal, --database postgres needs the server\'s URL; with it, nothing is asked', async () => {
    const run = io();
    const dir = fresh();
    expect(await create([dir, '--framework', 'express', '--no-install', '--database', 'postgres'], run.io)).toBe(1);
    expect(run.err[0]).toBe('create-paymount: name the PostgreSQL server with --database-url (postgres://user:password@host:5432/shop)');
    expect(existsSync(dir)).toBe(false);
    expect(await create([dir, '--framework', 'express', '--no-install', '--package-manager', 'npm', '--database-url', 'postgres://shop@db/shop'], run.io)).toBe(0);
    expect(parseEnv(readFileSync(join(dir, '.env'), 'utf8'))['DATABASE_URL']).toBe('postgres://shop@db/shop');
  });

  it('says what it made and the commands to run next', async () => {
    const run = io();
    const dir = fresh('next-steps');
    expect(await create([dir, '--framework', 'express', '--no-install', '--package-manager', 'npm'], run.io)).toBe(0);
    expect(run.out[0]).toMatch(new RegExp(`^Made the express shop in ${dir} \\(\\d+ files, package next-steps\\)\\.$`));
    expect(run.out[1]).toBe('Its orders live in PGlite, in its data/ folder.');
    expect(run.out.slice(3)).toEqual([
      'Next:',
      '  cd next-steps',
      '  npm install',
      "  npm start   # the shop on the embedded sandbox: it prints the shop's and the dashboard's URLs",
      '  npm test    # pays, declines and retries, replays a webhook',
    ]);
  });
});
