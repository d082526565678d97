import { fileURLToPath } from 'node:url';
import { declarations, packageBuild } from '../../tools/tsup.shared';

/**
 * @paymount/core is a dev dependency, bundled: the sandbox shares its field rules and messages
 * without depending on it at run time. Bundled from core's sources, whose files tree-shake one by
 * one (core's built chunks would carry undici along with the rules), and its declarations inlined.
 */
const coreEntry = (file: string) => fileURLToPath(new URL(`../core/src/${file}.ts`, import.meta.url));
const core = {
  '@paymount/core': coreEntry('index'),
  '@paymount/core/schemas': coreEntry('entries/schemas'),
  '@paymount/core/internal': coreEntry('entries/internal'),
};

export default packageBuild(
  { index: 'src/index.ts', cli: 'src/cli.ts' },
  {
    esbuildOptions(options) {
      options.alias = { ...options.alias, ...core };
    },
    ...(declarations && { dts: { compilerOptions: { paths: Object.fromEntries(Object.entries(core).map(([name, file]) => [name, [file]])) } } }),
  },
);
