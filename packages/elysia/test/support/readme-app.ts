import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { readmeBlocks } from '../../../../tools/readme-blocks';

const packageDir = join(import.meta.dirname, '..', '..');
const repoRoot = join(packageDir, '..', '..');
/** Where the README's project is written (git-ignored). */
export const readmeAppDir = join(packageDir, '.test-app', 'readme');
/** The test's way in beside the app: POST /test/orders, GET /test/orders/<id>, in the README's own order store. */
const HARNESS = `// The README's index.ts as \`bun run index.ts\` runs it, and beside it, on HARNESS_PORT, the test's way in to its orders.
import { orders } from './orders.ts';
import { withTestOrders } from './readme-harness.ts';
import './index.ts';

const harness = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.HARNESS_PORT),
  fetch: withTestOrders({ fetch: () => new Response('Not Found', { status: 404 }) }, orders).fetch,
});
// The README's own SIGTERM handler stops the app; with this server stopped too, the process ends only if the app let go of everything.
process.once('SIGTERM', () => void harness.stop());
`;

/**
 * The README's quick start as a project `bun init` made: its `index.ts` as
 * written, `bun init`'s tsconfig (test/elysia-app's), "your own order store"
 * (tests/readmes/context/orders.ts) and the harness that seeds and reads it
 * (tests/runtimes/flows/readme-harness.ts, as the hono README's Bun run has it).
 */
export function writeReadmeApp(): void {
  const quickStart = readmeBlocks('elysia', join(packageDir, 'README.md')).filter((block) => block.section === 'Quick start' && block.fileName === 'index.ts');
  if (quickStart.length !== 1) throw new Error(`the elysia README has ${quickStart.length} index.ts blocks under "## Quick start", expected one`);
  rmSync(readmeAppDir, { recursive: true, force: true });
  mkdirSync(readmeAppDir, { recursive: true });
  writeFileSync(join(readmeAppDir, 'index.ts'), quickStart[0]!.code);
  copyFileSync(join(packageDir, 'test', 'elysia-app', 'tsconfig.json'), join(readmeAppDir, 'tsconfig.json'));
  copyFileSync(join(repoRoot, 'tests', 'readmes', 'context', 'orders.ts'), join(readmeAppDir, 'orders.ts'));
  copyFileSync(join(repoRoot, 'tests', 'runtimes', 'flows', 'readme-harness.ts'), join(readmeAppDir, 'readme-harness.ts'));
  writeFileSync(join(readmeAppDir, 'harness.ts'), HARNESS);
}

/** The errors of the project's `index.ts` (and what it imports) under its tsconfig, `bun init`'s. */
export function compileReadmeApp(): string[] {
  const configPath = join(readmeAppDir, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, readmeAppDir, undefined, configPath);
  const program = ts.createProgram([join(readmeAppDir, 'index.ts')], options);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const at = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined;
    const where = diagnostic.file ? `${diagnostic.file.fileName}${at ? `:${at.line + 1}` : ''}` : '(options)';
    return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}
