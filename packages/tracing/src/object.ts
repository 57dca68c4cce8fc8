// One trace per pod start: the apiserver records the creating request's trace
// context on the object as an annotation, and whoever acts on the object later
// (scheduler bind, kubelet sync and its CRI calls) continues that trace.
// Upstream has no such annotation yet (KEP-5915 proposes
// `tracing.k8s.io/traceparent`, linking instead of parenting); the kubelab.io
// prefix says it is ours.

import { context as otelContext, ROOT_CONTEXT, trace, TraceFlags, type Context } from '@opentelemetry/api';
import { extractFromMap, injectToMap, TRACEPARENT } from './propagation.js';

export const TRACEPARENT_ANNOTATION = 'kubelab.io/traceparent';

interface WithAnnotations {
  metadata?: { annotations?: Record<string, string> | null | undefined } | null | undefined;
}

/** The annotation value for ctx: its `traceparent` when its span is valid and sampled, else undefined. */
export function traceparentFor(ctx: Context = otelContext.active()): string | undefined {
  const sc = trace.getSpanContext(ctx);
  if (!sc || !trace.isSpanContextValid(sc) || (sc.traceFlags & TraceFlags.SAMPLED) === 0) return undefined;
  return injectToMap(ctx)[TRACEPARENT];
}

/**
 * A copy of obj carrying ctx's trace context in `kubelab.io/traceparent`
 * (obj itself when there is nothing to record: never mutates a cached object).
 */
export function withTraceContextAnnotation<T extends WithAnnotations>(obj: T, ctx: Context = otelContext.active()): T {
  const tp = traceparentFor(ctx);
  if (!tp) return obj;
  const metadata = obj.metadata ?? {};
  return { ...obj, metadata: { ...metadata, annotations: { ...(metadata.annotations ?? {}), [TRACEPARENT_ANNOTATION]: tp } } };
}

/** The traceparent recorded on obj, if any. */
export function traceparentOf(obj: WithAnnotations | null | undefined): string | undefined {
  const v = obj?.metadata?.annotations?.[TRACEPARENT_ANNOTATION];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A context whose parent is the trace recorded on obj (base unchanged without a valid annotation). */
export function contextFromObject(obj: WithAnnotations | null | undefined, base: Context = ROOT_CONTEXT): Context {
  const tp = traceparentOf(obj);
  return tp ? extractFromMap({ [TRACEPARENT]: tp }, base) : base;
}
