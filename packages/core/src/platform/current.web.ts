/* The web build's binding of current.ts (see tsup.config.ts): Web Crypto and fetch. */
export { webPlatform as platform } from './web';
