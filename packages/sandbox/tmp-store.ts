import { SessionStore } from './src/sessions';
const store = new SessionStore(() => {}, 50000);
const body = (i: number) => ({ appId: 'app_bench', merchantId: 'mch_bench', transactionRequestId: `tr_${i}abcdefabcdef`, referenceOrderId: `order_${i}abc`, amount: { orderAmount: 1999, priceCurrency: 'USD' }, description: 'Bench order' });
const bodies = Array.from({ length: 100000 }, (_, i) => body(i));
let t = process.cpuUsage(); const now = Date.now();
for (let i = 0; i < 100000; i++) {
  store.create(bodies[i] as any, 'test', now);
  if (i % 20000 === 19999) { const u = process.cpuUsage(t); console.log(i + 1, ((u.user + u.system) / 20000).toFixed(2), 'us/op'); t = process.cpuUsage(); }
}
