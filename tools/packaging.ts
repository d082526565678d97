import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

/**
 * publint (the package.json's fields and files) and Are The Types Wrong (each `exports` entry's
 * types resolve for require and import) on the packed package; throws their report on any problem.
 * node10 resolution is not checked: engines require Node 20, whose TS users resolve with node16 or bundler.
 * `notTypeScriptEntries` names entries only a framework's own tooling loads (a `.svelte` or `.astro`
 * component's source), which Are The Types Wrong cannot resolve and so leaves out.
 */
export function assertPackageLints(packageDir: string, options: { notTypeScriptEntries?: readonly string[] } = {}): void {
  const bin = (name: string) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
  const run = (file: string, args: string[]) => {
    try {
      execFileSync(file, args, { cwd: packageDir, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, NO_COLOR: '1' } });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`${[file.split('/').pop(), ...args].join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`);
    }
  };
  run(bin('publint'), ['--strict']);
  const excluded = options.notTypeScriptEntries?.length ? ['--exclude-entrypoints', ...options.notTypeScriptEntries] : [];
  run(bin('attw'), ['--pack', '.', '--profile', 'node16', '--format', 'table-flipped', ...excluded]);
}

/**
 * The file `specifier` resolves to from `cwd` for a bundler or runtime whose
 * active conditions are `conditions` (plus `import` or `require`, after `kind`,
 * and `default`), as esbuild resolves package.json `exports`: how workerd's,
 * Next's, Bun's and Deno's resolvers see the package.
 */
export async function resolvedFile(specifier: string, cwd: string, conditions: string[], kind: 'import' | 'require'): Promise<string> {
  const { build } = await import('esbuild');
  let resolved: string | undefined;
  await build({
    stdin: { contents: kind === 'import' ? `import ${JSON.stringify(specifier)};` : `require(${JSON.stringify(specifier)});`, resolveDir: cwd },
    bundle: true,
    write: false,
    logLevel: 'silent',
    platform: 'neutral',
    // The repository's tsconfig maps package names to their sources; a consumer's resolver sees package.json only.
    tsconfigRaw: '{}',
    conditions,
    plugins: [
      {
        name: 'capture',
        setup(plugin) {
          plugin.onResolve({ filter: /.*/ }, async (args) => {
            if (args.importer !== '<stdin>' || args.pluginData === 'inner') return undefined;
            const result = await plugin.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'inner' });
            resolved = result.path;
            return { path: result.path, external: true };
          });
        },
      },
    ],
  });
  if (resolved === undefined) throw new Error(`${specifier} did not resolve under ${conditions.join(', ')}`);
  return resolved;
}
