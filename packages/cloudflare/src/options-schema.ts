import { z } from 'zod';

const hasMethods = (value: unknown, methods: readonly string[]) =>
  typeof value === 'object' && value !== null && methods.every((m) => typeof (value as Record<string, unknown>)[m] === 'function');

export const durableObjectStoresSchema = z.strictObject({
  namespace: z.custom<object>(
    (value) => hasMethods(value, ['idFromName', 'get']),
    'must be the Durable Object namespace bound to PaymountState (e.g. env.PAYMOUNT_STATE): check the durable_objects binding in wrangler.jsonc',
  ),
  options: z
    .strictObject({
      d1: z.custom<object>((value) => hasMethods(value, ['prepare', 'batch']), 'must be a D1 database binding (e.g. env.DB)').optional(),
    })
    .optional(),
});
