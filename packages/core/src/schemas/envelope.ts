import * as z from 'zod/mini';
import { compiled } from './compiled';
import { isPlainObject } from '../plain-object';

/**
 * The envelope every response carries. `data` is required on success; error
 * envelopes are accepted without it so their code and traceId still reach the
 * caller.
 */
export const responseEnvelopeSchema = compiled(
  z.looseObject({
    code: z.string(),
    msg: z.optional(z.string()),
    traceId: z.string(),
    // Keys of parsed JSON are strings, so "an object" is the whole rule; unlike z.record it
    // does not copy the data of every answer.
    data: z.nullish(z.custom<Record<string, unknown>>(isPlainObject, 'must be an object')),
  }),
);

export type { ResponseEnvelope } from '../types/response-envelope';
