import { isLogger } from '@paymount/core/schemas';
import { z } from 'zod';

const isObject = (value: unknown) => typeof value === 'object' && value !== null;

export const redisStoreOptionsSchema = z
  .strictObject({
    client: z
      .custom<object>(
        (value) => isObject(value) && ['set', 'eval', 'on'].every((m) => typeof (value as Record<string, unknown>)[m] === 'function'),
        'must be an ioredis client (Redis or Cluster)',
      )
      .optional(),
    connection: z
      .union([z.string().min(1, 'must not be empty'), z.custom<object>(isObject)], 'must be a redis:// URL or ioredis options')
      .optional(),
    keyPrefix: z.string('must be a string').optional(),
    logger: z.custom<object>(isLogger, 'must be a pino-compatible logger with debug, info, warn and error methods').optional(),
    requireDurability: z.boolean('must be true or false').optional(),
  })
  .refine((options) => (options.client === undefined) !== (options.connection === undefined), {
    message: 'set exactly one of `client` (an ioredis client) or `connection` (a URL or ioredis options)',
    params: { rule: 'one_connection_option' },
  });
