import { join } from 'node:path';
import { expect, it } from 'vitest';
import { assertPackageLints } from '../../../tools/packaging';
import { bundleWorker } from '../../../tools/workerd';

// The built package imports `cloudflare:workers`, which only workerd serves: Node cannot load it, so its
// names are read from the ESM build bundled as wrangler bundles a Worker (the routes proof runs it in workerd).
it('the built ESM entry, bundled as a Worker, exports its public names and imports no node:* module', async () => {
  const bundle = await bundleWorker({ file: join(import.meta.dirname, '../dist/index.js') }, ['cloudflare:workers']);
  expect(bundle.exports).toEqual(
    ['DurableObjectIdempotencyStore', 'DurableObjectOrderAttemptStore', 'EventCommit', 'PaymountState', 'durableObjectStores', 'withEventCommit'].sort(),
  );
  expect(bundle.imports).toEqual(['cloudflare:workers']);
});

it('publint and Are The Types Wrong find no problem in the packed package', () => {
  expect(() => assertPackageLints(`${import.meta.dirname}/..`)).not.toThrow();
}, 120_000);
