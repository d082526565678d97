export * from './errors';
export * from './logger';
export * from './routes/neutral-http';
export * from './webhooks';
export * from './idempotency';
