import { expect, it } from 'vitest';
import { assertPackageExports, assertPackageLints } from '../../../tools/packaging';

it('the built package loads from require() and import with its public names', () => {
  expect(() =>
    assertPackageExports('@paymount/bullmq', import.meta.dirname, [
      'createWebhookQueue',
      'WebhookQueue',
      'startWebhookWorkers',
      'jobIdOf',
      'PAYMENT_EVENT_JOB',
      'DEFAULT_ATTEMPTS',
      'DEFAULT_BACKOFF_MS',
      'DEFAULT_QUEUE_NAME',
      'DEFAULT_QUEUE_PREFIX',
      'DEFAULT_TIMEOUT_MS',
    ]),
  ).not.toThrow();
});

it('publint and Are The Types Wrong find no problem in the packed package', () => {
  expect(() => assertPackageLints(`${import.meta.dirname}/..`)).not.toThrow();
}, 120_000);
