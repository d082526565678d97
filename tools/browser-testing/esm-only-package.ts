import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * What tools/packaging's `assertPackageLints` checks, for the packages a
 * browser loads, which ship ES modules only: publint, and Are The Types Wrong
 * with its `esm-only` profile (a `require` of them is no resolution to
 * report: they have none). Throws the tools' report on any problem.
 */
export function assertEsmOnlyPackageLints(packageDir: string): void {
  const bin = (name: string) => fileURLToPath(new URL(`../../node_modules/.bin/${name}`, import.meta.url));
  for (const [tool, args] of [
    ['publint', ['--strict']],
    ['attw', ['--pack', '.', '--profile', 'esm-only', '--format', 'table-flipped']],
  ] as const) {
    try {
      execFileSync(bin(tool), args, { cwd: packageDir, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, NO_COLOR: '1' } });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`${[tool, ...args].join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`);
    }
  }
}

/** The names a plain Node process sees when it imports `packageName` from `cwd`. */
export function importedNames(packageName: string, cwd: string): string[] {
  const script = `const m = await import(${JSON.stringify(packageName)}); process.stdout.write(JSON.stringify(Object.keys(m).sort()))`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd, encoding: 'utf8' })) as string[];
}
