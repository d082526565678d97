import { z } from 'zod';

const line = (max: number) => z.string().min(1, 'must not be empty when sent').max(max, `must be at most ${max} characters`);

/**
 * A billing or shipping address of a direct payment (the vendor's
 * CheckoutAddress). Every part is optional; those sent must be usable for
 * address verification, so empty strings and free-form country names are refused.
 */
export const checkoutAddressSchema = z.strictObject({
  line1: line(128).optional(),
  line2: line(128).optional(),
  city: line(64).optional(),
  state: line(64).optional(),
  postalCode: line(16)
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, 'may contain only letters, digits, spaces and "-"')
    .optional(),
  countryCode: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code in upper case, e.g. "US"')
    .optional(),
});

export type { CheckoutAddress } from '../types/address';
