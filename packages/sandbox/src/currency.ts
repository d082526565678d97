const known = new Set(Intl.supportedValuesOf('currency'));

/** True for an ISO 4217 code this runtime knows (upper case, three letters). */
export function isKnownCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && known.has(code);
}

/** Digits after the decimal point of the currency's minor unit (2 for USD, 0 for JPY, 3 for BHD). */
export function currencyExponent(code: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** Minor units to a display string in the currency's own format, e.g. 1999 USD → "$19.99". */
export function formatMinor(minor: number, code: string): string {
  const exponent = currencyExponent(code);
  return new Intl.NumberFormat('en', { style: 'currency', currency: code, minimumFractionDigits: exponent }).format(
    minor / 10 ** exponent,
  );
}
