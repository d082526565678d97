import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packWorkspaces } from '../../../tools/npm-pack';
import { knownFrameworks, TEMPLATES_DIR } from '../src/scaffold';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of `npm pack` tarballs every template's proof installs paymount from. */
    templateTarballs: string;
  }
}

/** The `@paymount/*` packages the templates install: each is packed once for all of them. */
function templatePackages(): string[] {
  const names = knownFrameworks().flatMap((framework) => {
    const { dependencies = {}, devDependencies = {} } = JSON.parse(readFileSync(join(TEMPLATES_DIR, framework, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    return Object.keys({ ...dependencies, ...devDependencies }).filter((name) => name.startsWith('@paymount/'));
  });
  return [...new Set(names)].sort();
}

/** Once per run, before any template's proof: the packages packed as npm publishes them. */
export default function setup({ provide }: TestProject): () => void {
  const tarballs = mkdtempSync(join(tmpdir(), 'create-paymount-tarballs-'));
  const started = performance.now();
  packWorkspaces(templatePackages(), tarballs);
  process.stdout.write(`create-paymount templates: npm pack ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  provide('templateTarballs', tarballs);
  return () => rmSync(tarballs, { recursive: true, force: true });
}
