import { expect, it } from 'vitest';
import { describeReadmeQuickStart } from '../support/describe-readme-quick-start';
import { writeHonoReadmeApp } from '../support/hono-readme-app';
import { COMPATIBILITY_DATE, startWorker } from '../support/workerd';

// The README's worker.ts, bundled as wrangler bundles it and served by workerd (no nodejs_compat), its
// settings given as the Worker's bindings: the options are made from c.env on the first payment request.
describeReadmeQuickStart('Cloudflare workerd', async (app, { env, port }) => {
  const worker = await startWorker(app.entries.worker, env, port);
  return { close: worker.dispose };
});

it("the README's wrangler.jsonc asks for the compatibility date workerd runs it at, and no Node compatibility", () => {
  const config = writeHonoReadmeApp().wranglerConfig;
  expect(/"compatibility_date":\s*"([\d-]+)"/.exec(config)?.[1]).toBe(COMPATIBILITY_DATE);
  expect(config).not.toContain('"compatibility_flags"');
});
