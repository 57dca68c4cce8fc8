// Test support (`@kubelab/tracing/testing`): a Tracing that samples every
// span into memory, and a flat summary of spans for whole-value assertions.

import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { ContextPropagation } from './context.js';
import { setupTracing, type Tracing } from './setup.js';

export interface TestTracing {
  tracing: Tracing;
  exporter: InMemorySpanExporter;
  /** Finished spans in the order they ended. */
  spans(): ReadableSpan[];
  reset(): void;
}

export function setupTestTracing(serviceName: string, opts: { node?: string; samplingRatePerMillion?: number; contextPropagation?: ContextPropagation } = {}): TestTracing {
  const exporter = new InMemorySpanExporter();
  const tracing = setupTracing({
    serviceName,
    ...(opts.node ? { node: opts.node } : {}),
    samplingRatePerMillion: opts.samplingRatePerMillion ?? 1_000_000,
    exporter,
    env: {},
    ...(opts.contextPropagation ? { contextPropagation: opts.contextPropagation } : {}),
  });
  return { tracing, exporter, spans: () => exporter.getFinishedSpans(), reset: () => exporter.reset() };
}

export interface SpanSummary {
  name: string;
  kind: 'INTERNAL' | 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER';
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  status: 'UNSET' | 'OK' | 'ERROR';
  statusMessage?: string;
}

export function summarizeSpan(s: ReadableSpan): SpanSummary {
  const out: SpanSummary = {
    name: s.name,
    kind: SpanKind[s.kind] as SpanSummary['kind'],
    service: String(s.resource.attributes['service.name']),
    traceId: s.spanContext().traceId,
    spanId: s.spanContext().spanId,
    status: SpanStatusCode[s.status.code] as SpanSummary['status'],
  };
  if (s.parentSpanContext?.spanId) out.parentSpanId = s.parentSpanContext.spanId;
  if (s.status.message) out.statusMessage = s.status.message;
  return out;
}

export type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
export { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
