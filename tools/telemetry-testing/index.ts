import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

let contextManagerSet = false;

/** One exported metric point, flattened for assertions. */
export interface MetricPoint {
  name: string;
  attributes: Record<string, unknown>;
  /** A counter's sum, or a histogram's count. */
  value: number;
}

function valueOf(point: DataPoint<unknown>): number {
  const value = point.value;
  return typeof value === 'number' ? value : (value as { count: number }).count;
}

/**
 * The OpenTelemetry SDK wired to in-memory exporters, as a merchant's app
 * would wire it to OTLP: pass `telemetry` as the client's or handlers'
 * option, then read what was exported. Registers the AsyncLocalStorage
 * context manager (the Node SDK's default) once per process, so route spans
 * parent the client's call spans.
 */
export function captureTelemetry() {
  if (!contextManagerSet) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    contextManagerSet = true;
  }
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exported on demand only (collect()): the interval just has to outlast a test.
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });

  const collect = async (): Promise<MetricData[]> => {
    await reader.forceFlush();
    const exported = metricExporter.getMetrics();
    return exported.at(-1)?.scopeMetrics.flatMap((scope) => scope.metrics) ?? [];
  };

  return {
    telemetry: { tracerProvider, meterProvider },
    spans: (): ReadableSpan[] => spanExporter.getFinishedSpans(),
    /** Every point of every metric exported so far (cumulative). */
    async points(): Promise<MetricPoint[]> {
      return (await collect()).flatMap((metric) =>
        metric.dataPoints.map((point) => ({
          name: metric.descriptor.name,
          attributes: { ...point.attributes },
          value: valueOf(point as DataPoint<unknown>),
        })),
      );
    },
    /** The sum of a metric's points whose attributes include `match`. */
    async total(name: string, match: Record<string, unknown> = {}): Promise<number> {
      const points = (await this.points()).filter(
        (point) => point.name === name && Object.entries(match).every(([key, value]) => point.attributes[key] === value),
      );
      return points.reduce((sum, point) => sum + point.value, 0);
    },
    /**
     * Every string the exporters would send: span names, status messages, the
     * attributes of every span, span event and metric point. What a redaction
     * test scans for secrets.
     */
    async exportedText(): Promise<string[]> {
      const texts: string[] = [];
      for (const span of spanExporter.getFinishedSpans()) {
        texts.push(span.name, span.status.message ?? '', JSON.stringify(span.attributes));
        for (const event of span.events) texts.push(event.name, JSON.stringify(event.attributes ?? {}));
      }
      for (const metric of await collect()) {
        texts.push(metric.descriptor.name, metric.descriptor.description);
        for (const point of metric.dataPoints) texts.push(JSON.stringify(point.attributes));
      }
      return texts;
    },
    reset(): void {
      spanExporter.reset();
    },
    async close(): Promise<void> {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}

export type TelemetryCapture = ReturnType<typeof captureTelemetry>;

/** A span's children among `spans`. */
export function childrenOf(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
}
