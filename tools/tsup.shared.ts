import { defineConfig, type Options } from 'tsup';

/** One build recipe for every package: ESM + CJS, declarations for both, Node 20 target. */
export function packageBuild(entry: Record<string, string> = { index: 'src/index.ts' }, extra: Options = {}) {
  return defineConfig({
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'node',
    splitting: false,
    treeshake: true,
    ...extra,
  });
}
