import * as z from 'zod/mini';

/**
 * Requires exactly one of two alternative fields (two ways to name the same
 * transaction). The service would take the first of both silently; refusing
 * both makes a mix-up visible before anything is sent.
 */
export function withExactlyOneOf<S extends z.ZodMiniType<Record<string, unknown>>>(schema: S, first: string, second: string, names: string): S {
  return schema.check(
    z.refine((body: Record<string, unknown>) => body[first] !== undefined || body[second] !== undefined, {
      message: `${first} or ${second} is required: ${names}`,
      params: { rule: 'one_required' },
      path: [first],
    }),
    z.refine((body: Record<string, unknown>) => body[first] === undefined || body[second] === undefined, {
      message: `send ${first} or ${second}, not both`,
      params: { rule: 'only_one' },
      path: [second],
    }),
  );
}
