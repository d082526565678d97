import { startSandbox } from '@paymount/sandbox';
import { CREDENTIALS, PRODUCTION_API_KEY, WEBHOOK_SECRET } from '../fixtures/shop';
import { serveHarness } from '../harness/child-side';

/** @paymount/sandbox over plain HTTP with its rate limit off: its own speed, not its S04, is measured. */
serveHarness(async () => {
  const sandbox = await startSandbox({
    rateLimit: false,
    credentials: {
      appId: CREDENTIALS.appId,
      merchantId: CREDENTIALS.merchantId,
      testApiKey: CREDENTIALS.apiKey,
      productionApiKey: PRODUCTION_API_KEY,
      webhookSecret: WEBHOOK_SECRET,
    },
  });
  return { ready: { url: sandbox.url } };
});
