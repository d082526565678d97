import * as z from 'zod/mini';
// Not z.core.util: reaching through the namespace makes a bundler keep all of zod.
import { util } from 'zod/v4/core';

/**
 * A schema with zod's ahead-of-time fast path, derived from the schema itself.
 * Strict wherever code generation is allowed (Node, Bun, Deno): a rule that
 * stops a schema compiling then throws when core loads, in every test, rather
 * than quietly sending each body through the slower parser. Where it is
 * forbidden (workerd, the edge runtime) the schema keeps zod's parser.
 */
export function compiled<T extends z.core.$ZodType>(schema: T): T {
  return z.compile(schema, { strict: util.allowsEval.value });
}
