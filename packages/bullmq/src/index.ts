export { createWebhookQueue, jobIdOf, PAYMENT_EVENT_JOB, WebhookQueue, type FailedWebhookJob } from './webhook-queue';
export { startWebhookWorkers, type WebhookWorkers, type WebhookWorkersOptions } from './workers';
export { DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS, DEFAULT_QUEUE_NAME, DEFAULT_QUEUE_PREFIX, DEFAULT_TIMEOUT_MS, type WebhookQueueOptions } from './options';
export type { RedisConnections } from './redis-connections';
export { webhookQueueConnection } from './bull-connection';
