import { currencyExponents } from './currencies';
import { PaymentValidationError } from './errors';

/** The rule's message, one wording for the schemas and the money helpers. */
export const CURRENCY_RULE_MESSAGE =
  'must be an active ISO 4217 currency code in upper case, e.g. "USD" (withdrawn currencies such as DEM, precious metals such as XAU and the testing codes XTS/XXX are refused)';

/**
 * Money moves as integers in the currency's smallest unit. Which codes exist and
 * their exponents (JPY 0, USD 2, KWD 3) come from the table paymount ships, not
 * the runtime's ICU data, which differs between Node, Bun, Deno and workerd.
 */
export function isCurrencyCode(code: string): boolean {
  return currencyExponents.has(code);
}

export function currencyExponent(currency: string): number {
  const exponent = currencyExponents.get(currency);
  if (exponent === undefined) {
    throw new PaymentValidationError('currency', [{ path: 'currency', rule: 'iso_4217', message: CURRENCY_RULE_MESSAGE }]);
  }
  return exponent;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** `toMinorUnits('12.34', 'USD') === 1234`. More decimals than the currency has are refused, never rounded. */
export function toMinorUnits(value: string | number, currency: string): number {
  const exponent = currencyExponent(currency);
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) {
    throw moneyError('decimal', 'must be a non-negative decimal number such as "12.34"');
  }
  const [, whole = '', fraction = ''] = match;
  if (fraction.replace(/0+$/, '').length > exponent) {
    throw moneyError('max_decimals', `${currency} has ${exponent} decimal place(s); the value has more`);
  }
  const minor = Number(whole + fraction.padEnd(exponent, '0').slice(0, exponent));
  if (!Number.isSafeInteger(minor)) throw moneyError('safe_integer', 'is too large to be represented exactly');
  return minor;
}

/** `fromMinorUnits(1234, 'USD') === '12.34'`: an exact decimal string, never a float. */
export function fromMinorUnits(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor) || minor < 0) {
    throw moneyError('integer_minor_units', 'must be a non-negative integer amount in minor units');
  }
  const exponent = currencyExponent(currency);
  if (exponent === 0) return String(minor);
  const digits = String(minor).padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

function moneyError(rule: string, message: string): PaymentValidationError {
  return new PaymentValidationError('amount', [{ path: 'value', rule, message }]);
}
