// Bundled into this package's build (not a runtime dependency on @paymount/core):
// the client and its emulated service must accept the same currencies, read from one table.
import { currencyExponents } from '@paymount/core/internal';

/** True for an active ISO 4217 code of paymount's table (upper case, three letters). */
export function isKnownCurrency(code: string): boolean {
  return currencyExponents.has(code);
}

/** Minor units to a display string in the currency's own format, e.g. 1999 USD → "$19.99", 1500 BHD → "BHD 1.500". */
export function formatMinor(minor: number, code: string): string {
  // The digits are the table's, not ICU's: Node's ICU shows IDR or HUF without decimals, ISO 4217 gives them 2.
  const digits = currencyExponents.get(code) ?? 2;
  const format = new Intl.NumberFormat('en', { style: 'currency', currency: code, minimumFractionDigits: digits, maximumFractionDigits: digits });
  return format.format(minor / 10 ** digits);
}
