import { createPaymentRoutes } from '@paymount/core';
import { subject, withScope } from '/work/main/bench/src/harness/scope';
import { ORDER_IDS } from './src/fixtures/shop';
import { paymountOptions, countEvent } from './src/subjects/apps/paymount-options';
const N = Number(process.env.N ?? 100000);
await withScope(async (scope) => {
  const stub = await scope.start<{ url: string }>(subject('envelope-server'));
  const routes = createPaymentRoutes(paymountOptions(stub.ready.url, countEvent));
  const bodies = ORDER_IDS.map((id) => new TextEncoder().encode(JSON.stringify({ orderId: id })));
  const req = (i: number) => {
    const body = bodies[i % bodies.length]!;
    return { method: 'POST', path: '/checkout', headers: { 'content-type': 'application/json', 'content-length': String(body.length), accept: 'application/json' }, query: new URLSearchParams(), readBody: () => new Promise<Uint8Array>((r) => setImmediate(() => r(body))), context: undefined };
  };
  for (let i = 0; i < bodies.length * 2; i++) await routes.handle(req(i) as never);
  const run = async (n: number) => { let i = 0; await Promise.all(Array.from({ length: 20 }, async () => { while (i < n) { const r = await routes.handle(req(i++) as never); if (r!.status !== 201) throw new Error(String(r!.status) + r!.body); } })); };
  await run(20000);
  const c0 = process.cpuUsage(); const t0 = performance.now();
  await run(N);
  const c = process.cpuUsage(c0);
  console.log('cpu µs/req', ((c.user + c.system) / N).toFixed(2), 'wall', ((performance.now() - t0) * 1000 / N).toFixed(2));
  await routes.close();
});
