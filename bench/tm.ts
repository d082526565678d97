import { subject, withScope } from './src/harness/scope';
import { createPaymentClient } from '@paymount/core';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { CREDENTIALS, ORDERS } from './src/fixtures/shop';
import { sessionFieldsOf } from './src/fixtures/shop';
const discard = { export: (_i: unknown, done: (r: { code: 0 }) => void) => done({ code: 0 }), shutdown: async () => {}, forceFlush: async () => {} };
const tel = () => ({ tracerProvider: new BasicTracerProvider({ sampler: process.env.SAMPLED ? new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0.1) }) : undefined, spanProcessors: [new BatchSpanProcessor(discard as SpanExporter)] }), meterProvider: new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: discard as unknown as PushMetricExporter, exportIntervalMillis: 10_000 })] }) });
await withScope(async (scope) => {
  const stub = await scope.start<{ url: string }>(subject('envelope-server'));
  const order = ORDERS.get('order-0001')!;
  const input = sessionFieldsOf(order);
  const on = createPaymentClient({ ...CREDENTIALS, baseUrl: stub.ready.url, localDevelopment: true, telemetry: tel() });
  const off = createPaymentClient({ ...CREDENTIALS, baseUrl: stub.ready.url, localDevelopment: true, telemetry: false });
  const only = process.env.ONLY;
  async function run(c: typeof on, n: number) { const s = process.cpuUsage(); const conc = 8; let left = n; await Promise.all(Array.from({ length: conc }, async () => { while (left-- > 0) await c.createCheckoutSession(input); })); const u = process.cpuUsage(s); return (u.user + u.system) / n; }
  if (only) { await run(only === 'on' ? on : off, 60000); return; }
  await run(on, 3000); await run(off, 3000);
  const r: number[] = [];
  for (let k = 0; k < 9; k++) { const a = await run(on, 3000); const b = await run(off, 3000); r.push(b / a); console.log('on', a.toFixed(1), 'off', b.toFixed(1)); }
  r.sort(); console.log('median ratio', r[4]!.toFixed(3));
});
