import type { Platform } from '../types';
import { nodeCrypto } from './crypto';
import { loadOtelApi } from './otel';
import { createUndiciTransport } from './transport';

/** Node: node:crypto, undici with its TLS guard, `@opentelemetry/api` required when installed. */
export const nodePlatform: Platform = {
  name: 'node',
  crypto: nodeCrypto,
  createTransport: createUndiciTransport,
  loadOtelApi,
  isolatedMemory: () => undefined,
};
