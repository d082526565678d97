import { afterAll, beforeAll, expect, it } from 'vitest';
import { PaymentValidationError } from '@paymount/core';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { paymentMiddleware, type PaymentMiddlewareOptions } from '../src';

let fixture: AdapterFixture;
beforeAll(async () => {
  fixture = await startAdapterFixture();
});
afterAll(() => fixture.close());

it('refuses `prefix`, the old name of mountPath removed at 0.1.0, at start-up instead of serving at the root', () => {
  const options = { ...fixture.options, prefix: '/payments' } as PaymentMiddlewareOptions;
  expect(() => paymentMiddleware(options)).toThrow(PaymentValidationError);
  expect(() => paymentMiddleware(options)).toThrow(/prefix/);
});
