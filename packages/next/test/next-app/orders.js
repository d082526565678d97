// "Your own order store" of the README (`import { orders } from './orders'`), kept by the test process
// and reached over HTTP, as a merchant's database would be: the same on the Node and the edge runtime.
const store = () => process.env.TEST_ORDERS_URL;

async function call(path, body) {
  const res = await fetch(`${store()}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Error(`order store answered ${res.status} to ${path}`);
  return res.json();
}

export const orders = {
  find: (id) => call(`/orders/${encodeURIComponent(id)}`),
  markPaid: (id, transactionId) => call(`/orders/${encodeURIComponent(id)}/paid`, { transactionId }),
  markFailedUnlessPaid: (id) => call(`/orders/${encodeURIComponent(id)}/failed`, {}),
  markRefunded: (paymentTransactionId, refundTransactionId, amount) => call('/refunds', { paymentTransactionId, refundTransactionId, amount }),
};
