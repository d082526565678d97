/** What the shop sells. Prices are integers in minor units (cents): the server's, never the browser's. */
export interface Product {
  sku: string;
  name: string;
  price: number;
  currency: string;
}

export const CATALOG: readonly Product[] = [
  { sku: 'mug', name: 'Paymount mug', price: 1250, currency: 'USD' },
  { sku: 'tee', name: 'Paymount T-shirt', price: 2400, currency: 'USD' },
];

export function formatPrice(amount: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount / 10 ** digits);
}
