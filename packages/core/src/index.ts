export * from './errors';
export * from './logger';
export * from './routes/neutral-http';
