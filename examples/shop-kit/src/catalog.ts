/** What the shop sells. Prices are integers in the currency's minor unit, fixed on the server. */
export interface Product {
  sku: string;
  name: string;
  description: string;
  unitPrice: number;
  currency: string;
}

export const CATALOG: readonly Product[] = [
  { sku: 'mug', name: 'Enamel mug', description: 'A sturdy camp mug, 350 ml.', unitPrice: 1250, currency: 'USD' },
  { sku: 'notebook', name: 'Dot-grid notebook', description: 'A5, 120 pages, lay-flat binding.', unitPrice: 1890, currency: 'USD' },
];

/**
 * The sandbox decides the outcome by amount (8888 declined, 8887 insufficient
 * balance; a refund of 8888 declined), so against the sandbox the shop also
 * offers products at those prices to show what a failed payment looks like,
 * and one that pays and leaves room for the refund the sandbox declines.
 */
export const SANDBOX_OUTCOME_PRODUCTS: readonly Product[] = [
  { sku: 'declined', name: 'Sandbox: card declined', description: 'Priced at 88.88, which the sandbox declines.', unitPrice: 8888, currency: 'USD' },
  {
    sku: 'insufficient',
    name: 'Sandbox: insufficient balance',
    description: 'Priced at 88.87, which the sandbox refuses for insufficient balance.',
    unitPrice: 8887,
    currency: 'USD',
  },
  {
    sku: 'refund-declined',
    name: 'Sandbox: refund declined',
    description: 'Priced at 100.00 and paid normally; a refund of 88.88 of it is declined by the sandbox.',
    unitPrice: 10000,
    currency: 'USD',
  },
];

export function catalogFor(againstSandbox: boolean): readonly Product[] {
  return againstSandbox ? [...CATALOG, ...SANDBOX_OUTCOME_PRODUCTS] : CATALOG;
}
