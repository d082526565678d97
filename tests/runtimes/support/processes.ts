import { fileURLToPath } from 'node:url';

/** tests/runtimes: where the flow scripts run from, so `@paymount/core` resolves through node_modules. */
export const RUNTIMES_DIR = fileURLToPath(new URL('..', import.meta.url));

/**
 * The one permission the README names: network, here scoped to 127.0.0.1 (the
 * sandbox, the routes' own server, the conformance suite's bridge). No
 * --allow-env, --allow-read or -A.
 */
export const DENO_PERMISSIONS = ['--allow-net=127.0.0.1'];
