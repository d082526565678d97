import { describe, expect, it } from 'vitest';
import { currencyExponent, fromMinorUnits, PaymentValidationError, toMinorUnits } from '../src';

describe('currencyExponent', () => {
  it('comes from the ISO 4217 table paymount ships', () => {
    expect(currencyExponent('USD')).toBe(2);
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('KWD')).toBe(3);
  });

  it('refuses a code that is not ISO 4217', () => {
    const error = (() => {
      try {
        return currencyExponent('XYZ1');
      } catch (e) {
        return e;
      }
    })() as PaymentValidationError;
    expect(error).toBeInstanceOf(PaymentValidationError);
    expect(error.issues[0]?.rule).toBe('iso_4217');
    expect(() => currencyExponent('usd')).toThrow(PaymentValidationError);
  });
});

describe('toMinorUnits', () => {
  it.each([
    ['12.34', 'USD', 1234],
    ['12.3', 'USD', 1230],
    ['12', 'USD', 1200],
    ['0.01', 'USD', 1],
    ['500', 'JPY', 500],
    ['1.234', 'KWD', 1234],
    ['12.340', 'USD', 1234],
    [19.99, 'USD', 1999],
  ] as const)('%s %s → %d', (value, currency, minor) => {
    expect(toMinorUnits(value, currency)).toBe(minor);
  });

  it('refuses more decimals than the currency has, never rounding', () => {
    expect(() => toMinorUnits('12.345', 'USD')).toThrow(/2 decimal place/);
    expect(() => toMinorUnits('500.5', 'JPY')).toThrow(/0 decimal place/);
    expect(() => toMinorUnits(0.1 + 0.2, 'USD')).toThrow(PaymentValidationError);
  });

  it('refuses what is not a plain non-negative decimal', () => {
    for (const value of ['-1', '1e3', '12,34', '', 'abc', '1.']) {
      expect(() => toMinorUnits(value, 'USD')).toThrow(PaymentValidationError);
    }
  });

  it('refuses values beyond exact integers', () => {
    expect(() => toMinorUnits('90071992547409.93', 'USD')).toThrow(/too large/);
  });
});

describe('fromMinorUnits', () => {
  it('writes an exact decimal string', () => {
    expect(fromMinorUnits(1234, 'USD')).toBe('12.34');
    expect(fromMinorUnits(5, 'USD')).toBe('0.05');
    expect(fromMinorUnits(0, 'USD')).toBe('0.00');
    expect(fromMinorUnits(500, 'JPY')).toBe('500');
    expect(fromMinorUnits(1234, 'KWD')).toBe('1.234');
  });

  it('round-trips with toMinorUnits', () => {
    for (const minor of [0, 1, 99, 100, 123456789]) {
      expect(toMinorUnits(fromMinorUnits(minor, 'USD'), 'USD')).toBe(minor);
    }
  });

  it('refuses a decimal or negative minor amount', () => {
    expect(() => fromMinorUnits(12.5, 'USD')).toThrow(PaymentValidationError);
    expect(() => fromMinorUnits(-1, 'USD')).toThrow(PaymentValidationError);
  });
});
