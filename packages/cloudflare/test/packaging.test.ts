import { join } from 'node:path';
import { build } from 'esbuild';
import { expect, it } from 'vitest';
import { assertPackageLints } from '../../../tools/packaging';
import { WORKER_BUILD } from '../../../tests/runtimes/support/worker-build';

// The built package imports `cloudflare:workers`, which only workerd serves: Node cannot load it, so its
// names are read from the ESM build bundled as wrangler bundles a Worker (the routes proof runs it in workerd).
it('the built ESM entry, bundled as a Worker, exports its public names and imports no node:* module', async () => {
  const result = await build({
    ...WORKER_BUILD,
    external: [...WORKER_BUILD.external, 'cloudflare:workers'],
    entryPoints: [join(import.meta.dirname, '../dist/index.js')],
    write: false,
    metafile: true,
    outdir: 'out',
  });
  const [output] = Object.values(result.metafile.outputs);
  expect(output?.exports.sort()).toEqual(
    ['DurableObjectIdempotencyStore', 'DurableObjectOrderAttemptStore', 'EventCommit', 'PaymountState', 'durableObjectStores', 'withEventCommit'].sort(),
  );
  expect(output?.imports.map((i) => i.path)).toEqual(['cloudflare:workers']);
});

it('publint and Are The Types Wrong find no problem in the packed package', () => {
  expect(() => assertPackageLints(`${import.meta.dirname}/..`)).not.toThrow();
}, 120_000);
