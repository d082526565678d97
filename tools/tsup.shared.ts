import { defineConfig, type Options } from 'tsup';

/**
 * `npm start` sets PAYMOUNT_DECLARATIONS=skip: the example shops run the built JavaScript, and the
 * declarations are most of a build's time. turbo hashes the variable, so a later full build (tests,
 * typecheck, release) is not served the declaration-less output from its cache.
 */
export const declarations = process.env['PAYMOUNT_DECLARATIONS'] !== 'skip';

/** One build recipe for every package: ESM + CJS, declarations for both (unless skipped, above), Node 20 target. */
export function packageBuild(entry: Record<string, string> = { index: 'src/index.ts' }, extra: Options = {}) {
  return defineConfig({
    entry,
    format: ['esm', 'cjs'],
    dts: declarations,
    sourcemap: true,
    // A start's build keeps the declarations a full build wrote, so an editor's types stay.
    clean: declarations,
    target: 'node20',
    platform: 'node',
    splitting: false,
    treeshake: true,
    ...extra,
  });
}
