import type * as z from 'zod/mini';

/**
 * The edge build's binding of compiled.ts (see tsup.config.ts): where code
 * generation is forbidden a schema keeps zod's parser, so the compiler is
 * left out of the bundle rather than carried to fall back from.
 */
export function compiled<T extends z.core.$ZodType>(schema: T): T {
  return schema;
}
