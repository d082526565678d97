import { describe, expect, it } from 'vitest';
import { currencyExponents } from '../src/entries/internal';
import { amountSchema, validate } from '../src/entries/schemas';
import { currencyExponent, fromMinorUnits, toMinorUnits } from '../src';
import { validationErrorOf } from './support/validation-error';

describe('the currency table', () => {
  it('holds the 164 active ISO 4217 codes kept (list one 2026-01-01: 178, less 14 metals, units of account and testing codes)', () => {
    expect(currencyExponents.size).toBe(164);
    for (const [code, exponent] of currencyExponents) {
      expect(code).toMatch(/^[A-Z]{3}$/);
      expect([0, 2, 3, 4]).toContain(exponent);
    }
  });

  it('every code in it is a valid priceCurrency and has its exponent in the money helpers', () => {
    for (const [code, exponent] of currencyExponents) {
      expect(validate(amountSchema, { orderAmount: 100, priceCurrency: code }, 'amount').priceCurrency).toBe(code);
      expect(currencyExponent(code)).toBe(exponent);
      expect(toMinorUnits(fromMinorUnits(12345, code), code)).toBe(12345);
    }
  });

  it.each([
    ['JPY', 0],
    ['USD', 2],
    ['KWD', 3],
    ['BHD', 3],
    ['CLF', 4],
  ] as const)('%s has %d decimal places', (code, exponent) => {
    expect(currencyExponent(code)).toBe(exponent);
  });

  it('converts with ISO 4217 exponents, not the runtime ICU (Node shows IDR and IQD without decimals)', () => {
    expect(toMinorUnits('100', 'IDR')).toBe(10_000);
    expect(toMinorUnits('1.5', 'IQD')).toBe(1500);
    expect(fromMinorUnits(12_345, 'CLF')).toBe('1.2345');
    expect(toMinorUnits('0.0001', 'UYW')).toBe(1);
  });

  it.each([
    ['XAU', 'gold: no minor unit'],
    ['XXX', 'the no-currency code'],
    ['XTS', 'the testing code'],
    ['XDR', 'a unit of account'],
    ['DEM', 'withdrawn in 2002'],
    ['HRK', 'withdrawn in 2023'],
    ['BGN', 'withdrawn 2026-01-01'],
  ])('%s (%s) is refused as priceCurrency, naming the field and the rule', (code) => {
    const error = validationErrorOf(() => validate(amountSchema, { orderAmount: 100, priceCurrency: code }, 'amount'));
    expect(error.issues).toEqual([{ path: 'priceCurrency', rule: 'iso_4217', message: expect.stringContaining('active ISO 4217 currency code') }]);
    expect(error.message).toMatch(/^Invalid amount: priceCurrency must be an active ISO 4217 currency code/);
  });

  it.each(['XAU', 'XXX', 'DEM'])('%s is refused by the money helpers with the same rule', (code) => {
    for (const run of [() => currencyExponent(code), () => toMinorUnits('1', code), () => fromMinorUnits(1, code)]) {
      expect(validationErrorOf(run).issues).toEqual([{ path: 'currency', rule: 'iso_4217', message: expect.stringContaining('active ISO 4217 currency code') }]);
    }
  });
});
