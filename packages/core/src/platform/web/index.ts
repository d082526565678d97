import type { Platform } from '../types';
import { webCrypto } from './crypto';
import { isolatedMemory } from './runtime';
import { fetchTransport } from './transport';

/**
 * Every runtime but Node: Web Crypto and fetch. `@opentelemetry/api` is not
 * loaded by name (a bundler would fail on the optional import when it is not
 * installed): the app passes it as `telemetry: { api }`.
 */
export const webPlatform: Platform = {
  name: 'web',
  crypto: webCrypto,
  // The client's schema has validated the base URL, and refuses the Node transport's options (dispatcher, ca) on this build.
  createTransport: ({ baseUrl }) => fetchTransport(baseUrl),
  loadOtelApi: () => undefined,
  isolatedMemory,
};
