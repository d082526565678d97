import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
      help: false,
    });
    expect(parseCli(['my-shop', '-f', 'express'])).toMatchObject({ install: true, packageManager: undefined, packages: undefined });
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
    ] as const;
    for (const [path, text] of files) {
      mkdirSync(join(templates, path, '..'), { recursive: true });
      writeFileSync(join(templates, path), text);
    }
    const dir = fresh();
    expect(scaffold({ dir, framework: 'one', versions, templatesDir: templates }).files).toEqual(['README.md', 'package.json', 'src/a.ts', 'src/b.ts', 'src/c.ts']);
    expect(['src/a.ts', 'src/b.ts'].map((path) => readFileSync(join(dir, path), 'utf8'))).toEqual(['one a', 'server b']);
    // A folder without a template.json is a layer, not a framework.
    expect(knownFrameworks(templates)).toEqual(['one']);
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
    expect(run.err[0]).toMatch(/^create-paymount: name the framework with --framework \((\w+, )*express, /);
  });

  it('on a terminal, asks for what the flags left out', async () => {
    const questions: string[] = [];
    const answers: Record<string, string> = { 'Folder for the shop': fresh('asked'), Framework: 'express', 'Package manager': 'yarn' };
    const run = io(async (question) => {
      questions.push(question);
      return answers[question]!;
    });
    expect(await create(['--no-install'], run.io)).toBe(0);
    expect(questions).toEqual(['Folder for the shop', 'Framework', 'Package manager']);
    expect(run.out).toContain('  yarn install');
    expect(run.out).toContain('  yarn start   # the shop on the embedded sandbox: it prints the shop\'s and the dashboard\'s URLs');
  });

  it('says what it made and the commands to run next', async () => {
    const run = io();
    const dir = fresh('next-steps');
    expect(await create([dir, '--framework', 'express', '--no-install', '--package-manager', 'npm'], run.io)).toBe(0);
    expect(run.out[0]).toMatch(new RegExp(`^Made the express shop in ${dir} \\(\\d+ files, package next-steps\\)\\.$`));
    expect(run.out.slice(2)).toEqual([
      'Next:',
      '  cd next-steps',
      '  npm install',
      "  npm start   # the shop on the embedded sandbox: it prints the shop's and the dashboard's URLs",
      '  npm test    # pays, declines and retries, replays a webhook',
    ]);
  });
});
