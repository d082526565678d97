const known = new Set(Intl.supportedValuesOf('currency'));

/** True for an ISO 4217 code this runtime knows (upper case, three letters). */
export function isKnownCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && known.has(code);
}

/** Minor units to a display string in the currency's own format, e.g. 1999 USD → "$19.99". */
export function formatMinor(minor: number, code: string): string {
  // A currency format already shows exactly the currency's minor-unit digits (2 for USD, 0 for JPY, 3 for BHD).
  const format = new Intl.NumberFormat('en', { style: 'currency', currency: code });
  return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}
