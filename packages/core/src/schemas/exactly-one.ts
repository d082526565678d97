import type { z } from 'zod';

/**
 * Requires exactly one of two alternative fields (two ways to name the same
 * transaction). The service would take the first of both silently; refusing
 * both makes a mix-up visible before anything is sent.
 */
export function withExactlyOneOf<S extends z.ZodType<Record<string, unknown>>>(schema: S, first: string, second: string, names: string): S {
  return schema
    .refine((body) => body[first] !== undefined || body[second] !== undefined, {
      message: `${first} or ${second} is required: ${names}`,
      params: { rule: 'one_required' },
      path: [first],
    })
    .refine((body) => body[first] === undefined || body[second] === undefined, {
      message: `send ${first} or ${second}, not both`,
      params: { rule: 'only_one' },
      path: [second],
    });
}
