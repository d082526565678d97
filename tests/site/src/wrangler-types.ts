import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binary } from '../../../tools/child-processes';
import type { Page } from './pages';

/** The page's ```jsonc blocks, as written. */
function jsoncBlocks(path: string): string[] {
  return [...readFileSync(path, 'utf8').matchAll(/^```jsonc\n([\s\S]*?)^```$/gm)].map((found) => found[1]!);
}

/**
 * Writes what `wrangler types` generates in a create-cloudflare project, `worker-configuration.d.ts`, into the page's
 * project `dir`: the runtime's own declarations for the config's compatibility date (`Request`, `Response`, `console`,
 * `D1Database`...) and the Worker's `Env` from its bindings, which the template's tsconfig names in `types` (so
 * @types/node is not part of the program, as in the reader's project). Run with the workspace's wrangler on the
 * page's `wrangler.jsonc` (its one ```jsonc block), whose `main` is a file of the project.
 */
export function writeWranglerTypes(page: Page, dir: string): void {
  const configs = jsoncBlocks(page.path);
  if (configs.length !== 1) throw new Error(`site/${page.id}.md has ${configs.length} \`\`\`jsonc blocks: wrangler types needs its one wrangler.jsonc`);
  writeFileSync(join(dir, 'wrangler.jsonc'), configs[0]!);
  try {
    execFileSync(binary('wrangler'), ['types'], {
      cwd: dir,
      stdio: 'pipe',
      timeout: 120_000,
      // Local only: no usage report, no update check, its log beside the project rather than in the home folder.
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG_PATH: join(dir, '.wrangler', 'logs'), NO_COLOR: '1' },
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: Buffer | string; stderr?: Buffer | string };
    throw new Error(`site/${page.id}.md: wrangler types failed: ${String(stdout)}${String(stderr)}`);
  }
}
