import type { Platform } from '../types';
import { webCrypto } from './crypto';
import { isolatedMemory } from './runtime';
import { createFetchTransport } from './transport';

/**
 * Every runtime but Node: Web Crypto and fetch. `@opentelemetry/api` is not
 * loaded by name (a bundler would fail on the optional import when it is not
 * installed): the app passes it as `telemetry: { api }`.
 */
export const webPlatform: Platform = {
  name: 'web',
  crypto: webCrypto,
  // Only the base URL: the Node transport's options (dispatcher, ca) are refused by the client's schema on this build.
  createTransport: ({ baseUrl }) => createFetchTransport({ baseUrl }),
  loadOtelApi: () => undefined,
  isolatedMemory,
};
