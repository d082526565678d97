/*
 * The platform core runs on. This file binds Node's, for Node's build and for
 * the sources (tests, typecheck); the web build (tsup.config.ts) resolves this
 * module to current.web.ts instead. Nothing else imports a platform directly,
 * but for the root entry's `createFetchTransport`: web-standard, so public on both builds.
 */
export { nodePlatform as platform } from './node';
