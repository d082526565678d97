import type { Charge, Refund } from '@paymount/sandbox';

/**
 * What the embedded sandbox (in the `next start` process, out of this test's
 * reach) recorded for an order: its dashboard's data, the charges and refunds
 * of that order, newest first.
 */
export async function sandboxRecords(sandboxOrigin: string, orderId: string): Promise<{ charges: Charge[]; refunds: Refund[] }> {
  const res = await fetch(`${sandboxOrigin}/sandbox/dashboard/data?orderId=${encodeURIComponent(orderId)}`);
  if (!res.ok) throw new Error(`the sandbox's dashboard data answered ${res.status}: ${await res.text()}`);
  const { snapshot } = (await res.json()) as { snapshot: { charges: Charge[]; refunds: Refund[] } };
  return { charges: snapshot.charges, refunds: snapshot.refunds };
}
