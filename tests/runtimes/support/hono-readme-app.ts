import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readmeBlocks } from '../../../tools/readme-blocks';
import { RUNTIMES_DIR } from './processes';

// The Hono README's Workers, Bun and Deno quick starts live on its site guide now, as written there.
const README = join(RUNTIMES_DIR, '..', '..', 'site', 'guides', 'hono.md');
/** The guide's section holding the Workers, Bun and Deno quick starts. */
const SECTION = 'Cloudflare Workers, Bun and Deno';
/** The files that section writes, by their first-line names. */
const FILES = ['payment-options.ts', 'worker.ts', 'server.ts'] as const;

/**
 * Where the README's files are written (git-ignored): below tests/runtimes, so
 * `hono` and `@paymount/*` resolve through node_modules to the built packages,
 * as in a merchant's project.
 */
const APP_DIR = join(RUNTIMES_DIR, '.readme-apps', 'hono');

export interface HonoReadmeApp {
  /** What each runtime starts: the README's module behind the test's way in (flows/readme-harness.ts), relative to tests/runtimes. */
  entries: { worker: string; server: string };
  /** The README's `bun …` and `deno serve …` command lines, as written. */
  commands: { bun: string; deno: string };
  /** The README's wrangler.jsonc, as written. */
  wranglerConfig: string;
}

/** The one fenced block of `language` in the README whose text contains `marker`. */
function fencedBlock(readme: string, language: string, marker: string): string {
  const blocks = [...readme.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1] ?? '').filter((text) => text.includes(marker));
  if (blocks.length !== 1) throw new Error(`hono README: ${blocks.length} \`\`\`${language} blocks containing "${marker}", expected one`);
  return blocks[0]!;
}

/** The line of the README's shell blocks that starts with `prefix`. */
function commandLine(readme: string, prefix: string): string {
  const line = fencedBlock(readme, 'sh', prefix)
    .split('\n')
    .find((l) => l.startsWith(prefix));
  if (line === undefined) throw new Error(`hono README: no command line starting "${prefix}"`);
  return line.trim();
}

/**
 * Writes the README's Workers, Bun and Deno files as written, with
 * `./orders.ts` (the README's "own order store": tests/readmes/context) and an
 * entry per app that serves it behind flows/readme-harness.ts.
 */
export function writeHonoReadmeApp(): HonoReadmeApp {
  const readme = readFileSync(README, 'utf8');
  const blocks = readmeBlocks('hono', README).filter((block) => block.section === SECTION);
  rmSync(APP_DIR, { recursive: true, force: true });
  mkdirSync(APP_DIR, { recursive: true });
  for (const name of FILES) {
    const found = blocks.filter((block) => block.fileName === name);
    if (found.length !== 1) throw new Error(`hono README: ${found.length} blocks named ${name} under "## ${SECTION}", expected one`);
    writeFileSync(join(APP_DIR, name), `${found[0]!.code}\n`);
  }
  const context = relative(APP_DIR, join(RUNTIMES_DIR, '..', 'readmes', 'context', 'orders.ts'));
  writeFileSync(join(APP_DIR, 'orders.ts'), `export * from '${context}';\n`);
  // Bun follows the nearest tsconfig's `paths`, and the repository's map @paymount/* to their sources: none here (as flows/tsconfig.json).
  writeFileSync(join(APP_DIR, 'tsconfig.json'), '{ "compilerOptions": {} }\n');
  const harness = relative(APP_DIR, join(RUNTIMES_DIR, 'flows', 'readme-harness.ts'));
  const entries = { worker: 'entry-worker.ts', server: 'entry-server.ts' };
  for (const [entry, app] of [
    [entries.worker, './worker.ts'],
    [entries.server, './server.ts'],
  ] as const) {
    writeFileSync(
      join(APP_DIR, entry),
      `import app from '${app}';\nimport { orders } from './orders.ts';\nimport { withTestOrders } from '${harness}';\n\nexport default withTestOrders(app, orders);\n`,
    );
  }
  return {
    entries: { worker: relative(RUNTIMES_DIR, join(APP_DIR, entries.worker)), server: relative(RUNTIMES_DIR, join(APP_DIR, entries.server)) },
    commands: { bun: commandLine(readme, 'bun '), deno: commandLine(readme, 'deno serve ') },
    wranglerConfig: fencedBlock(readme, 'jsonc', '// wrangler.jsonc'),
  };
}

/**
 * The README's `deno serve` command for the test's run: its own flags as
 * written (the `--allow-env` list above all), serving `entry` on `port` of
 * 127.0.0.1, with `--allow-net` naming the sandbox's address instead of the
 * README's local one; never prompting, writing no lock file.
 */
export function denoServeArgs(command: string, { entry, port, service }: { entry: string; port: number; service: string }): string[] {
  const [deno, serve, ...flags] = command.split(/\s+/);
  const file = flags.pop();
  if (deno !== 'deno' || serve !== 'serve' || file !== 'server.ts') throw new Error(`hono README: "${command}" is not \`deno serve … server.ts\``);
  const portAt = flags.indexOf('--port');
  const netAt = flags.findIndex((flag) => flag.startsWith('--allow-net='));
  if (portAt === -1 || netAt === -1) throw new Error(`hono README: "${command}" names no --port or no --allow-net=`);
  flags[portAt + 1] = String(port);
  flags[netAt] = `--allow-net=${service}`;
  return [serve, ...flags, '--host', '127.0.0.1', '--no-prompt', '--no-lock', entry];
}
