import { join } from 'node:path';
import { NUXT, SVELTEKIT, type FrameworkProject } from './framework-projects';
import { readmesDir, repoRoot, siteTestsDir } from './paths';

/** A framework's own project template, as far as compiling its files goes. */
export interface Template {
  /** The tsconfig the template writes (or, where tests/readmes has it, tests/readmes' copy). */
  tsconfig: string;
  /** The `type` of the package.json the template writes: how `module: nodenext` reads a `.ts` file. */
  packageType: 'module' | 'commonjs';
  /** Files the template (or its first build) puts beside the code, by path. */
  files?: Record<string, string>;
  /** A template whose tsconfig extends what the framework generates: the project is its files, generated, as is. */
  framework?: FrameworkProject;
}

const own = (name: string): string => join(siteTestsDir, 'templates', `${name}.tsconfig.json`);

/**
 * The templates a page names in its frontmatter (`template: create-next-app`). A page with TypeScript
 * blocks and no `template:` is compiled as `tsc-init`.
 */
export const TEMPLATES: Record<string, Template> = {
  // `npm init -y` (then "type": "module") and `tsc --init`: tests/readmes' strict settings, one definition.
  'tsc-init': { tsconfig: join(readmesDir, 'blocks.tsconfig.json'), packageType: 'module' },
  'nest-new': { tsconfig: own('nest-new'), packageType: 'commonjs' },
  'create-next-app': {
    tsconfig: own('create-next-app'),
    packageType: 'commonjs',
    files: { 'next-env.d.ts': '/// <reference types="next" />\n/// <reference types="next/image-types/global" />\n' },
  },
  'create-hono': { tsconfig: own('create-hono'), packageType: 'module' },
  'create-cloudflare': { tsconfig: own('create-cloudflare'), packageType: 'module' },
  // What `bun init` (Bun 1.4.5) writes, kept unchanged by packages/elysia's test app.
  'bun-init': { tsconfig: join(repoRoot, 'packages', 'elysia', 'test', 'elysia-app', 'tsconfig.json'), packageType: 'module' },
  'deno-init': { tsconfig: own('deno-init'), packageType: 'module' },
  'astro-minimal': {
    tsconfig: own('astro-minimal'),
    packageType: 'module',
    // What `astro sync` writes to .astro/: Astro's client types.
    files: { '.astro/types.d.ts': '/// <reference types="astro/client" />\n' },
  },
  'create-react-router': { tsconfig: join(readmesDir, 'react-router-template.tsconfig.json'), packageType: 'module' },
  // The tsconfig of TanStack Start's `start-basic` template, kept by packages/tanstack-start's test app.
  'tanstack-start-basic': { tsconfig: join(repoRoot, 'packages', 'tanstack-start', 'test', 'start-app', 'tsconfig.json'), packageType: 'module' },
  'sv-create-minimal': { tsconfig: SVELTEKIT.templateFiles['tsconfig.json']!, packageType: 'module', framework: SVELTEKIT },
  'nuxt-minimal': { tsconfig: NUXT.templateFiles['tsconfig.json']!, packageType: 'module', framework: NUXT },
  'vite-vanilla-ts': { tsconfig: join(readmesDir, 'templates', 'vite-vanilla-ts', 'tsconfig.json'), packageType: 'module' },
  'vite-react-ts': { tsconfig: join(readmesDir, 'templates', 'vite-react-ts', 'tsconfig.app.json'), packageType: 'module' },
};
