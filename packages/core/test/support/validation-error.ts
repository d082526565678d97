import { expect } from 'vitest';
import { PaymentValidationError } from '../../src/index';

/** The PaymentValidationError `fn` throws; fails the test when it throws anything else or nothing. */
export function validationErrorOf(fn: () => unknown): PaymentValidationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentValidationError);
    return error as PaymentValidationError;
  }
  throw new Error('expected a PaymentValidationError');
}
