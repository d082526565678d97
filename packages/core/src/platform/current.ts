/*
 * The platform core runs on. This file binds Node's, for Node's build and for
 * the sources (tests, typecheck); the web build (tsup.config.ts) resolves this
 * module to current.web.ts instead. Nothing else imports a platform directly.
 */
export { nodePlatform as platform } from './node';
// Bound on their own too, for code that needs nothing else of the platform (webhook verification):
// a bundle of `@paymount/core/webhooks` then leaves out the transport the platform object holds.
export { nodeCrypto as platformCrypto } from './node/crypto';
export { compile as compileSchema } from 'zod/v4/core';
