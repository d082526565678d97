import { execFileSync } from 'node:child_process';

/**
 * Loads a built package from a plain Node process, once with require() and once
 * with import, and returns the exported names each module system sees.
 */
export function exportedNames(packageName: string, cwd: string): { require: string[]; import: string[] } {
  const run = (args: string[]) =>
    JSON.parse(execFileSync(process.execPath, args, { cwd, encoding: 'utf8' })) as string[];
  return {
    require: run([
      '--input-type=commonjs',
      '-e',
      `process.stdout.write(JSON.stringify(Object.keys(require(${JSON.stringify(packageName)})).sort()))`,
    ]),
    import: run([
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(packageName)}); process.stdout.write(JSON.stringify(Object.keys(m).filter((k) => k !== 'default').sort()))`,
    ]),
  };
}

/** The built package exposes the same names to require() and import, and at least `expected`. */
export function assertPackageExports(packageName: string, cwd: string, expected: readonly string[]): void {
  const names = exportedNames(packageName, cwd);
  const missing = (list: string[]) => expected.filter((name) => !list.includes(name));
  if (JSON.stringify(names.require) !== JSON.stringify(names.import)) {
    throw new Error(`require() and import see different names:\n${JSON.stringify(names, null, 2)}`);
  }
  const absent = missing(names.require);
  if (absent.length > 0) throw new Error(`${packageName} does not export: ${absent.join(', ')}`);
}
