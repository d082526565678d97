import { LoadGenerator } from './src/harness/load-generator';
import { subject, withScope } from './src/harness/scope';
import { measureRoutePair, CHECKOUT_REQUEST } from './src/figures/routes';
const fw = (process.argv[2] ?? 'nest') as 'nest';
await withScope(async (scope) => {
  const stub = await scope.start<{ url: string }>(subject('envelope-server'));
  const load = scope.adopt(await LoadGenerator.start());
  const app = { framework: fw, upstream: stub.ready.url };
  const runs = await measureRoutePair(scope, { runs: 2, connections: 20, warmupMs: 300, durationMs: Number(process.env.D ?? 1200), maxOps: 500000 }, load, { paymount: app, handwritten: app }, CHECKOUT_REQUEST, 201);
  for (const [k, v] of runs) console.log(k, v.map((r) => `${r.opsPerSecond}/s p99 ${r.latencyMs.p99}`).join(' | '));
});
