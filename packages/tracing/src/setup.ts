// One OpenTelemetry tracer per service, set up once at start (upstream:
// component-base/tracing NewProvider). Off unless an endpoint (or a test
// exporter) is given: then nothing is registered and the gRPC/NATS helpers
// return the calls untouched, so an untraced cluster pays nothing.

import { context as otelContext, INVALID_SPAN_CONTEXT, ProxyTracerProvider, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { resolveTracingConfig, type ResolvedTracingConfig, type TracingOptions } from './config.js';
import { ensureContextManager, type ContextPropagation } from './context.js';
import { LeanTracer } from './span.js';

export interface SetupTracingOptions extends TracingOptions {
  /** Export here instead of OTLP (tests): enables tracing without an endpoint, spans exported one by one. */
  exporter?: SpanExporter;
  /** Batch spans for `exporter` as the OTLP path does (benchmarks); default: export each span at once. */
  batch?: boolean;
  /**
   * 'async' (default): a span made active stays active across awaits (AsyncLocalStorage;
   * on Node 20 a hook on every promise of the process). 'sync': active only while the
   * function given to `context.with` runs synchronously — for services that hand contexts
   * over explicitly and should not pay the per-promise cost. See context.ts.
   */
  contextPropagation?: ContextPropagation;
  env?: NodeJS.ProcessEnv;
}

export interface SpanOptions {
  kind?: SpanKind;
  /** Set only when the span records; pass a function to skip building them for unsampled spans too. */
  attributes?: Attributes | (() => Attributes);
  /** Parent context; default: the active one. */
  parent?: Context;
}

export interface Tracing {
  readonly enabled: boolean;
  readonly config: ResolvedTracingConfig;
  readonly tracer: Tracer;
  /** Runs fn in a new span that is active for all of fn's async work; records a throw as an error and rethrows. */
  withSpan<T>(name: string, fn: (span: Span) => Promise<T> | T, opts?: SpanOptions): Promise<T>;
  /** Exports what is buffered (call before exit; tests call it before asserting). */
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** Resource attributes: who produced a span. */
export function resourceAttributes(cfg: ResolvedTracingConfig): Attributes {
  return {
    'service.name': cfg.serviceName,
    'service.namespace': 'kubelab',
    ...(cfg.node ? { 'k8s.node.name': cfg.node, 'service.instance.id': cfg.node } : {}),
  };
}

/** Upstream's sampler: ParentBased(TraceIDRatioBased(rate / 1e6)); unset rate = ratio 0 for roots. */
export function samplerFor(cfg: ResolvedTracingConfig): Sampler {
  return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler((cfg.samplingRatePerMillion ?? 0) / 1_000_000) });
}

export function recordError(span: Span, err: unknown): void {
  const e = err instanceof Error ? err : new Error(String(err));
  span.recordException(e);
  span.setStatus({ code: SpanStatusCode.ERROR, message: e.message });
}

function makeWithSpan(tracer: Tracer, enabled: boolean): Tracing['withSpan'] {
  return async (name, fn, opts = {}) => {
    if (!enabled) return fn(trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
    const parent = opts.parent ?? otelContext.active();
    const span = tracer.startSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL }, parent);
    if (opts.attributes && span.isRecording()) span.setAttributes(typeof opts.attributes === 'function' ? opts.attributes() : opts.attributes);
    try {
      return await otelContext.with(trace.setSpan(parent, span), () => fn(span));
    } catch (err) {
      recordError(span, err);
      throw err;
    } finally {
      span.end();
    }
  };
}

export function setupTracing(opts: SetupTracingOptions): Tracing {
  const config = resolveTracingConfig(opts, opts.env ?? process.env);
  const processors: SpanProcessor[] = [];
  if (opts.exporter) processors.push(opts.batch ? new BatchSpanProcessor(opts.exporter) : new SimpleSpanProcessor(opts.exporter));
  else if (config.endpoint) processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url: config.endpoint })));

  if (processors.length === 0) {
    // Off: a private no-op provider, so a later global registration by anyone else cannot turn it on.
    const tracer = new ProxyTracerProvider().getTracer('kubelab');
    return {
      enabled: false,
      config,
      tracer,
      withSpan: makeWithSpan(tracer, false),
      forceFlush: async () => {},
      shutdown: async () => {},
    };
  }

  ensureContextManager(opts.contextPropagation ?? 'async');
  const resource = resourceFromAttributes(resourceAttributes(config));
  const sampler = samplerFor(config);
  // The provider owns the processors' flush and shutdown; spans start on the lean path (span.ts).
  const provider = new BasicTracerProvider({ resource, sampler, spanProcessors: processors });
  const tracer = new LeanTracer(sampler, resource, { name: 'kubelab', version: '0.1.0' }, processors);
  let shut = false;
  return {
    enabled: true,
    config,
    tracer,
    withSpan: makeWithSpan(tracer, true),
    forceFlush: () => provider.forceFlush(),
    shutdown: async () => {
      if (shut) return;
      shut = true;
      await provider.shutdown();
    },
  };
}
