import { PaymentValidationError } from './errors';

/**
 * Money moves as integers in the currency's smallest unit. The exponent comes
 * from the runtime's own ISO 4217 data (ICU), so a currency such as JPY (0),
 * USD (2) or KWD (3) needs no table kept by hand.
 */
const exponents = new Map<string, number>();
let knownCurrencies: ReadonlySet<string> | undefined;

export function isCurrencyCode(code: string): boolean {
  knownCurrencies ??= new Set(Intl.supportedValuesOf('currency'));
  return knownCurrencies.has(code);
}

export function currencyExponent(currency: string): number {
  const cached = exponents.get(currency);
  if (cached !== undefined) return cached;
  if (!isCurrencyCode(currency)) {
    throw new PaymentValidationError('currency', [
      { path: 'currency', rule: 'iso_4217', message: 'must be an ISO 4217 currency code this runtime knows, e.g. "USD"' },
    ]);
  }
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  exponents.set(currency, digits);
  return digits;
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
