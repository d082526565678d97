import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readmeBlocks, type ReadmeBlock } from '../../../tools/readme-blocks';
import { guidePath, readmePaths, repoRoot } from '@paymount/readme-tests/workspace';

/** How an app's `tsconfig.json` departs from the README tests' strict settings (`blocks.tsconfig.json`). */
type Setting = 'nodenext ESM' | 'nodenext CommonJS' | 'bundler';

/** A README block put into an app as one of its files. */
interface BlockSource {
  /** The `## ` section it is under. */
  section: string;
  /** Its `// name.ts` first line, when the section has several blocks. */
  fileName?: string;
  /** The first block of that name in the section (Nest's `main.ts`: the Express platform's, not Fastify's). */
  file: string;
}

/** The README block that exempts the payment routes from the app's own auth. */
interface GuardBlock extends BlockSource {
  /** The block keeps the checkout behind the app's auth and exempts only the webhook (Hono's `except`): a shopper checks out signed in. */
  checkoutSignedIn?: boolean;
  /** The app's auth answers every other path, those without a route too (a middleware or hook; a Nest guard runs on matched routes only). */
  guardsEveryPath?: boolean;
}

export interface FreshApp {
  /** The README's package directory: `express`, `nestjs`... */
  readme: string;
  setting: Setting;
  blocks: BlockSource[];
  /** The compiled file `node` runs, under `dist/`; none for Next.js (built by `next build`, served by `next start`: src/next-app.ts). */
  main?: string;
  /** The README's "Testing your handlers" block, compiled beside the app as `test-webhook.ts`, when it has one. */
  testingBlock: boolean;
  /** Where shoppers land after paying answers `Order <id>` (the quick start has an order page). */
  orderPage: boolean;
  /**
   * The README's block exempting the payment routes from an app-wide guard or auth hook; the
   * app's `guarded-main.js` runs without it, `exempt-main.js` with it (test/guard.test.ts).
   */
  guard?: GuardBlock;
  /**
   * The README's block that keeps a global body parser before the payment routes (Express's
   * `express.json()` with `verify`, Koa's `@koa/bodyparser`), written as `parser-first.ts`; the
   * app's `parser-first-main.js` runs it (test/parser-first.test.ts).
   */
  parserFirst?: BlockSource;
  /** The app's own files beside the README's: their paths from tests/fresh-apps, and their names in the app. */
  shopFiles?: Record<string, string>;
}

const freshAppsDir = join(repoRoot, 'tests/fresh-apps');
const shopDir = join(freshAppsDir, 'shop');
const contextDir = join(repoRoot, 'tests/readmes/context');
const preludeDir = join(freshAppsDir, 'preludes');

/**
 * The app's own files for its guard test: the quick start's options against a sandbox, its app
 * module (`shop/<framework>-app.ts`, which the README's runtime prelude imports) and the two mains.
 */
function guardShop(framework: string): Record<string, string> {
  return {
    'shop/payment-options.ts': 'payment-options.ts',
    [`shop/${framework}-app.ts`]: `${framework}-app.ts`,
    [`shop/${framework}-guarded-main.ts`]: 'guarded-main.ts',
    [`shop/${framework}-exempt-main.ts`]: 'exempt-main.ts',
  };
}

/** The README section Express, Koa and Hono exempt the payment routes in, written as `auth-middleware.ts`. */
const AUTH_MIDDLEWARE = { section: 'An app-wide auth middleware', file: 'auth-middleware.ts', guardsEveryPath: true };

/** An app of the README's `## Quick start` block alone, as `app.ts`: an ES module under nodenext, started as `app.js`. */
function quickStartApp(readme: string, app: Pick<FreshApp, 'testingBlock' | 'orderPage' | 'guard' | 'parserFirst' | 'shopFiles'>): FreshApp {
  return { readme, setting: 'nodenext ESM', blocks: [{ section: 'Quick start', file: 'app.ts' }], main: 'app.js', ...app };
}

/**
 * Express's and Koa's app: the quick start, the README's app-wide auth middleware block, and the
 * block under `parserSection` that keeps the app's global body parser before the payment routes.
 */
function middlewareApp(readme: 'express' | 'koa', { testingBlock, parserSection }: { testingBlock: boolean; parserSection: string }): FreshApp {
  return quickStartApp(readme, {
    testingBlock,
    orderPage: true,
    guard: AUTH_MIDDLEWARE,
    parserFirst: { section: parserSection, file: 'parser-first.ts' },
    shopFiles: { ...guardShop(readme), [`shop/${readme}-parser-first-main.ts`]: 'parser-first-main.ts' },
  });
}

export const FRESH_APPS: FreshApp[] = [
  // The issue's Express 5 app has express.json() first: the guide's "The webhook's raw body" block keeps it there.
  middlewareApp('express', { testingBlock: true, parserSection: "The webhook's raw body" }),
  // The issue's Koa app has @koa/bodyparser first: the guide's "The webhook's raw body" block keeps it there.
  middlewareApp('koa', { testingBlock: false, parserSection: "The webhook's raw body" }),
  quickStartApp('fastify', {
    testingBlock: true,
    orderPage: true,
    guard: { section: 'An app-wide auth hook', file: 'auth-hook.ts', guardsEveryPath: true },
    shopFiles: { ...guardShop('fastify'), 'shop/fastify-serve.ts': 'fastify-serve.ts' },
  }),
  // Hono's block exempts the webhook only: the checkout stays behind the app's auth.
  quickStartApp('hono', { testingBlock: true, orderPage: true, guard: { ...AUTH_MIDDLEWARE, checkoutSignedIn: true }, shopFiles: guardShop('hono') }),
  {
    readme: 'nestjs',
    // `nest new` writes a CommonJS project (no "type": "module") with `module: nodenext`.
    setting: 'nodenext CommonJS',
    blocks: [
      { section: 'Quick start', fileName: 'main.ts', file: 'main.ts' },
      { section: 'Quick start', fileName: 'app.module.ts', file: 'app.module.ts' },
    ],
    main: 'main.js',
    testingBlock: false,
    orderPage: true,
    guard: { section: 'Global guards', file: 'global-guards.module.ts' },
    shopFiles: {
      '../readmes/context/orders.module.ts': 'orders.module.ts',
      'shop/payment-options.ts': 'payment-options.ts',
      'shop/nest-session.ts': 'session.ts',
      'shop/nest-guarded-main.ts': 'guarded-main.ts',
      'shop/nest-exempt-main.ts': 'exempt-main.ts',
    },
  },
  {
    readme: 'next',
    // What `create-next-app` writes: `moduleResolution: bundler`.
    setting: 'bundler',
    blocks: [
      { section: 'Quick start', fileName: 'payments.ts', file: 'payments.ts' },
      { section: 'Quick start', fileName: 'app/payments/[...paymount]/route.ts', file: 'app/payments/[...paymount]/route.ts' },
      { section: 'Quick start', fileName: 'instrumentation.ts', file: 'instrumentation.ts' },
      { section: 'Quick start', fileName: 'app/orders/[id]/route.ts', file: 'app/orders/[id]/route.ts' },
      // The app-wide auth check, its matcher leaving the payment routes out (test/next.test.ts).
      { section: 'An app-wide proxy', fileName: 'proxy.ts', file: 'proxy.ts' },
    ],
    testingBlock: false,
    orderPage: true,
    shopFiles: {
      'shop/next.config.mjs': 'next.config.mjs',
      // The quick start's routes mounted again where the proxy's matcher does not leave them out.
      'shop/next-moved-route.ts': 'app/shop-api/payments/[...paymount]/route.ts',
    },
  },
];

/** The settings per kind of project, over `blocks.tsconfig.json` (strict, exactOptionalPropertyTypes, skipLibCheck off...). */
const SETTINGS: Record<Setting, { type: 'module' | 'commonjs'; compilerOptions: Record<string, unknown>; extensionlessImports?: true }> = {
  'nodenext ESM': { type: 'module', compilerOptions: {} },
  // verbatimModuleSyntax forbids `import` in a CommonJS file: a CommonJS project turns it off (TS1295 says so).
  'nodenext CommonJS': { type: 'commonjs', compilerOptions: { verbatimModuleSyntax: false } },
  // next build (Turbopack) resolves no `./x.js` to `x.ts` under bundler: the app's own files import `./x`, as its README does.
  bundler: { type: 'module', compilerOptions: { module: 'preserve', moduleResolution: 'bundler', noEmit: true }, extensionlessImports: true },
};

function readmeCode(readme: string, source: BlockSource): string {
  const path = readmePaths().find((entry) => entry.readme === readme)?.path;
  if (!path) throw new Error(`no README for ${readme}`);
  const matches = (block: ReadmeBlock): boolean => block.section === source.section && (source.fileName === undefined || block.fileName === source.fileName);
  // A section the README no longer has moved to its framework's guide on the site, with its blocks as they were.
  const inReadme = readmeBlocks(readme, path).filter(matches);
  const found = inReadme.length > 0 || !existsSync(guidePath(readme)) ? inReadme : readmeBlocks(readme, guidePath(readme)).filter(matches);
  const block = found[0];
  if (!block) throw new Error(`${readme} README and guide: no block under "## ${source.section}"${source.fileName ? ` named ${source.fileName}` : ''}`);
  // What the README tests declare in a prelude, the app has for real: the prelude of the same name here.
  const preludes = block.preludes.map((name) => {
    const prelude = join(preludeDir, `${name}.ts`);
    if (!existsSync(prelude)) throw new Error(`${readme} README.md:${block.line}: no runtime prelude ${name} in tests/fresh-apps/preludes`);
    return readFileSync(prelude, 'utf8');
  });
  return `${preludes.join('')}${block.code}\n`;
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/**
 * Writes `app` into `<projectDir>/<readme>`: its README blocks as written, the reader's own
 * order store (the README tests' store, and `shop/orders.ts` seeding it), a `tsconfig.json`
 * of the app's kind extending the project's `blocks.tsconfig.json` (written once by
 * `createFreshProject`), and a `package.json` for its module kind. Resolves the app's directory.
 */
export function writeFreshApp(projectDir: string, app: FreshApp): string {
  const dir = join(projectDir, app.readme);
  const setting = SETTINGS[app.setting];
  for (const source of app.blocks) write(join(dir, source.file), readmeCode(app.readme, source));
  if (app.testingBlock) write(join(dir, 'test-webhook.ts'), readmeCode(app.readme, { section: 'Testing your handlers', file: 'test-webhook.ts' }));
  copyFileSync(join(contextDir, 'orders.ts'), join(dir, 'order-store.ts'));
  for (const [from, to] of Object.entries(app.shopFiles ?? {})) {
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    copyFileSync(join(freshAppsDir, from), join(dir, to));
  }
  for (const block of [app.guard, app.parserFirst]) if (block) write(join(dir, block.file), readmeCode(app.readme, block));
  const orders = readFileSync(join(shopDir, 'orders.ts'), 'utf8');
  write(join(dir, 'orders.ts'), setting.extensionlessImports ? orders.replace(/(from '\.\/[\w-]+)\.js'/g, "$1'") : orders);
  write(join(dir, 'package.json'), JSON.stringify({ name: `fresh-${app.readme}`, private: true, type: setting.type }, null, 2));
  write(
    join(dir, 'tsconfig.json'),
    JSON.stringify(
      {
        extends: '../blocks.tsconfig.json',
        compilerOptions: { noEmit: false, outDir: 'dist', rootDir: '.', ...setting.compilerOptions },
        include: ['**/*.ts'],
        exclude: ['dist', 'node_modules'],
      },
      null,
      2,
    ),
  );
  return dir;
}
