// The ISO 4217 table and minor-unit conversion.
import { PaymentValidationError } from './errors';

/**
 * The currencies paymount accepts and their minor-unit exponents: the one
 * table every runtime reads, so a request is valid or invalid identically on
 * Node, Bun, Deno and workerd (their ICU data disagree: 162, 307 and 159 codes).
 *
 * Source: ISO 4217 list one ("Current currency & funds"), SIX Group
 * list-one.xml, Pblshd="2026-01-01" (178 codes; BGN withdrawn, Bulgaria on
 * EUR; ANG, CUC, HRK, SLL, ZWL no longer listed), transcribed 2026-11-26.
 * Check the next amendment there before a release.
 *
 * Left out (14 codes), because an amount in them cannot be charged in minor
 * units or is not money: precious metals XAU XAG XPT XPD and the bond-market
 * units XBA XBB XBC XBD (no minor unit in ISO 4217), the supranational units
 * of account XDR XSU XUA (no minor unit) and XAD (an Arab Monetary Fund
 * accounting unit), and the testing and no-currency codes XTS XXX.
 * National fund codes (BOV CHE CHW CLF COU MXV USN UYI UYW) stay: they have
 * exponents, and merchants in Chile and Uruguay invoice in CLF and UYI.
 */
const CODES_BY_EXPONENT: Readonly<Record<number, string>> = {
  0: 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF',
  2:
    'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
    'CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP ' +
    'GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK ' +
    'LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO ' +
    'NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS ' +
    'SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST ' +
    'XCD XCG YER ZAR ZMW ZWG',
  3: 'BHD IQD JOD KWD LYD OMR TND',
  4: 'CLF UYW',
};

/** Code → number of decimal places of its minor unit (JPY 0, USD 2, KWD 3, CLF 4). */
export const currencyExponents: ReadonlyMap<string, number> = new Map(
  Object.entries(CODES_BY_EXPONENT).flatMap(([exponent, codes]) => codes.split(' ').map((code) => [code, Number(exponent)] as const)),
);

/** The rule's message, one wording for the schemas and the money helpers. */
export const CURRENCY_RULE_MESSAGE =
  'must be an active ISO 4217 currency code in upper case, e.g. "USD" (withdrawn currencies such as DEM, precious metals such as XAU and the testing codes XTS/XXX are refused)';

// Money moves as integers in the currency's smallest unit. Which codes exist and
// their exponents (JPY 0, USD 2, KWD 3) come from the table above, not the
// runtime's ICU data, which differs between Node, Bun, Deno and workerd.

/** Whether `code` is a currency paymount accepts: an active ISO 4217 code of the table above. */
export function isCurrencyCode(code: string): boolean {
  return currencyExponents.has(code);
}

/** The decimal places of `currency`'s minor unit (JPY 0, USD 2, KWD 3); a code not in the table is refused. */
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
