import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import type { PackageManager } from './args';

/** Beside `dist/` in the published package, beside `src/` here. */
export const TEMPLATES_DIR = fileURLToPath(new URL('../templates/', import.meta.url));

/**
 * A template's `template.json`: the folders of files it shares with other templates, laid under
 * its own in order (a later folder's file replaces an earlier one's of the same path). What two
 * templates would otherwise copy lives in such a folder: `shared` for every shop, `node-server` for
 * the shops served by a Node HTTP server. A layer `folder/path` takes that one file of the folder,
 * at `path`: a shop on another runtime (a Worker) takes what of a folder runs there, not all of it.
 */
interface TemplateManifest {
  layers: string[];
}

const MANIFEST = 'template.json';

/** The frameworks there is a template for: the folders with a `template.json`. */
export function knownFrameworks(templatesDir = TEMPLATES_DIR): string[] {
  return readdirSync(templatesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(templatesDir, entry.name, MANIFEST)))
    .map((entry) => entry.name)
    .sort();
}

/** The folders `framework`'s files come from, the lowest first, the framework's own last. */
function layersOf(framework: string, templatesDir: string): string[] {
  const { layers } = JSON.parse(readFileSync(join(templatesDir, framework, MANIFEST), 'utf8')) as TemplateManifest;
  return [...layers, framework];
}

export interface ScaffoldOptions {
  dir: string;
  framework: string;
  /** A folder of `npm pack` tarballs: `@paymount/*` is installed from them (`file:` specs). */
  packages?: string | undefined;
  /** Each `@paymount/*` package's range when not from tarballs: the releases this package was published with. */
  versions: Readonly<Record<string, string>>;
  /** What installs the shop: with `packages`, the tarballs are also pinned where it reads its overrides. */
  packageManager?: PackageManager | undefined;
  /** A PostgreSQL server for the orders: written to the shop's `.env` as DATABASE_URL. */
  databaseUrl?: string | undefined;
  templatesDir?: string;
}

export interface Scaffolded {
  dir: string;
  /** The package name, from the folder's name. */
  name: string;
  /** The files written, relative to `dir`, sorted. */
  files: string[];
}

/** A refusal before anything is written: its message names what to change. */
export class ScaffoldError extends Error {
  override readonly name = 'ScaffoldError';
}

/** Relative paths of the files under `root`. */
function filesUnder(root: string, prefix = ''): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(root, path) : [path];
  });
}

/** npm pack leaves out `.gitignore`, so templates keep it as `_gitignore`. */
function targetPath(path: string): string {
  return path.replace(/(^|\/)_gitignore$/, '$1.gitignore');
}

/** A package name npm accepts, from a folder's name: lower case, no spaces or leading dots. */
export function packageNameFor(dir: string): string {
  const name = basename(resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return name === '' ? 'paymount-shop' : name;
}

/** `@paymount/<name>`'s tarball in `folder`, as `npm pack` names it (`paymount-<name>-<version>.tgz`). */
function tarballOf(packageName: string, folder: string, tarballs: readonly string[]): string {
  const prefix = `${packageName.replace(/^@/, '').replace('/', '-')}-`;
  const matches = tarballs.filter((file) => file.startsWith(prefix) && /^\d/.test(file.slice(prefix.length)));
  if (matches.length !== 1) {
    throw new ScaffoldError(
      matches.length === 0
        ? `--packages ${folder} has no tarball of ${packageName} (${prefix}<version>.tgz); run npm pack -w ${packageName} --pack-destination ${folder}`
        : `--packages ${folder} has ${matches.length} tarballs of ${packageName} (${matches.join(', ')}); keep one`,
    );
  }
  return `file:${join(resolve(folder), matches[0]!)}`;
}

/** `@paymount/<name>`'s range among the releases create-paymount was published with. */
function releaseOf(packageName: string, versions: Readonly<Record<string, string>>): string {
  const range = versions[packageName];
  if (range === undefined) throw new ScaffoldError(`create-paymount was published without ${packageName}, which the template needs; install it with --packages or report it`);
  return range;
}

type Dependencies = Record<string, string>;

/**
 * `@paymount/express` asks for `@paymount/core@^0.1.0`: npm takes the app's own tarball for it, but
 * pnpm, yarn and bun look such a range up in the registry unless an override points it at the tarball.
 */
function overridesFor(manager: PackageManager | undefined, pinned: Dependencies): Record<string, unknown> {
  switch (manager) {
    case 'pnpm':
      return { pnpm: { overrides: pinned } };
    case 'yarn':
      return { resolutions: pinned };
    case 'bun':
      return { overrides: pinned };
    default:
      return {};
  }
}

/** The template's package.json with the app's name and every `@paymount/*` dependency pointed at a tarball or the release. */
function packageJson(text: string, name: string, options: ScaffoldOptions): string {
  const manifest = JSON.parse(text) as { name?: string; dependencies?: Dependencies; devDependencies?: Dependencies };
  const tarballs = options.packages === undefined ? undefined : readdirSync(options.packages).filter((file) => file.endsWith('.tgz'));
  const pinned: Dependencies = {};
  const pin = (dependencies: Dependencies | undefined) => {
    for (const dependency of Object.keys(dependencies ?? {})) {
      if (!dependency.startsWith('@paymount/')) continue;
      pinned[dependency] = dependencies![dependency] = tarballs === undefined ? releaseOf(dependency, options.versions) : tarballOf(dependency, options.packages!, tarballs);
    }
  };
  pin(manifest.dependencies);
  pin(manifest.devDependencies);
  const overrides = tarballs === undefined ? {} : overridesFor(options.packageManager, pinned);
  return `${JSON.stringify({ ...manifest, name, ...overrides }, null, 2)}\n`;
}

/** The shop's `.env` naming its PostgreSQL server; refused, before anything is written, if a .env file could not hold the URL as it is. */
function dotEnv(databaseUrl: string): string {
  const line = `DATABASE_URL=${databaseUrl}`;
  if (parseEnv(line)['DATABASE_URL'] !== databaseUrl) throw new ScaffoldError('the database URL has a character a .env file reads otherwise (a space, quote or #): percent-encode it');
  return `# The shop's orders and paymount's stores live on this PostgreSQL server (create-paymount --database postgres).\n# Git ignores this file: the URL may hold a password. The other settings: .env.example.\n${line}\n`;
}

/**
 * Writes `framework`'s template into `dir`: the files of its layers, then its own over them (a
 * path two have is the later one's). Refuses, before writing anything, an unknown framework,
 * a `dir` that is a file or a folder that is not empty, and a `--packages` folder without a tarball
 * the template needs.
 */
export function scaffold(options: ScaffoldOptions): Scaffolded {
  const templatesDir = options.templatesDir ?? TEMPLATES_DIR;
  const frameworks = knownFrameworks(templatesDir);
  if (!frameworks.includes(options.framework)) {
    throw new ScaffoldError(`there is no "${options.framework}" template; the frameworks are: ${frameworks.join(', ')}`);
  }
  const dir = resolve(options.dir);
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new ScaffoldError(`${dir} is a file; name a new or empty folder`);
    const present = readdirSync(dir);
    if (present.length > 0) {
      throw new ScaffoldError(`${dir} is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}); the shop is written only into a new or empty folder, so nothing of yours is overwritten`);
    }
  }
  if (options.packages !== undefined && !(existsSync(options.packages) && statSync(options.packages).isDirectory())) {
    throw new ScaffoldError(`--packages ${options.packages} is not a folder`);
  }
  const sources = new Map<string, string>();
  for (const layer of layersOf(options.framework, templatesDir)) {
    const [folder = layer, ...file] = layer.split('/');
    const root = join(templatesDir, folder);
    const paths = file.length > 0 ? [file.join('/')] : filesUnder(root);
    for (const path of paths) if (path !== MANIFEST) sources.set(targetPath(path), join(root, path));
  }
  const name = packageNameFor(dir);
  // Every file is read and rendered first: a refusal (a missing tarball) leaves the folder untouched.
  const rendered = [...sources].map(([path, source]) => {
    const text = readFileSync(source);
    return [path, path === 'package.json' ? packageJson(text.toString('utf8'), name, options) : text] as const;
  });
  if (options.databaseUrl !== undefined) rendered.push(['.env', dotEnv(options.databaseUrl)]);
  for (const [path, content] of rendered) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    // .env may hold a password: readable by its owner only.
    writeFileSync(target, content, path === '.env' ? { mode: 0o600 } : {});
  }
  return { dir, name, files: rendered.map(([path]) => relative(dir, join(dir, path))).sort() };
}
