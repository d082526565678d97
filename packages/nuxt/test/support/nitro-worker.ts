import { serveWorker } from '../../../../tools/workerd';
import { serverEntry } from './test-app';

/**
 * The test app's `cloudflare-module` build (`.output/server/index.mjs`) bundled as `wrangler deploy` bundles it and
 * served by workerd on 127.0.0.1, one isolate, `env` as the Worker's variables. No `nodejs_compat`: the build has
 * none unless the merchant's wrangler config asks for it, and the handler needs none.
 */
export async function startNitroWorker(env: Record<string, string>): Promise<{ origin: string; stop(): Promise<void> }> {
  const worker = await serveWorker({ file: serverEntry('cloudflare-module') }, { bindings: env });
  return { origin: worker.url.origin, stop: worker.dispose };
}
