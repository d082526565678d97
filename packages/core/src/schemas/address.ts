import * as z from 'zod/mini';
import { countryCodeSchema } from './fields';

const line = (max: number, ...checks: z.core.$ZodCheck<string>[]) =>
  z.string().check(z.minLength(1, 'must not be empty when sent'), z.maxLength(max, `must be at most ${max} characters`), ...checks);

/**
 * A billing or shipping address of a direct payment (the vendor's
 * CheckoutAddress). Every part is optional; those sent must be usable for
 * address verification, so empty strings and free-form country names are refused.
 */
export const checkoutAddressSchema = z.strictObject({
  line1: z.optional(line(128)),
  line2: z.optional(line(128)),
  city: z.optional(line(64)),
  state: z.optional(line(64)),
  postalCode: z.optional(line(16, z.regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, 'may contain only letters, digits, spaces and "-"'))),
  countryCode: z.optional(countryCodeSchema),
});

export type { CheckoutAddress } from '../types/address';
