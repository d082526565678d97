export * from './errors';
export * from './logger';
