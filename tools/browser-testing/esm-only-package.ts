import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * What tools/packaging's `assertPackageLints` checks, for the packages a
 * browser loads, which ship ES modules only: publint, and Are The Types Wrong
 * with its `esm-only` profile. A CommonJS caller gets the ES module (Node
 * 20.19 require()s it), which the `node16` profile reports as a problem.
 * Throws the tools' report on any problem.
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
