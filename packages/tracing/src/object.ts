// One trace per pod start: the apiserver records the creating request's trace
// context on the object as an annotation, and whoever acts on the object later
// (scheduler bind, kubelet sync and its CRI calls) continues that trace.
// Upstream has no such annotation yet (KEP-5915 proposes
// `tracing.k8s.io/traceparent`, linking instead of parenting); the kubelab.io
// prefix says it is ours.

import { context as otelContext, ROOT_CONTEXT, trace, TraceFlags, type Context } from '@opentelemetry/api';
import { extractFromMap, formatTraceparent, hasValidIds, injectToMap, TRACEPARENT } from './propagation.js';
import { newSpanId, newTraceId } from './span.js';

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
 * The kinds whose creates always record a trace context, export on or off:
 * the objects a pod start goes through (workload → ReplicaSet → pod), so the
 * controllers, scheduler, kubelet and runtime can continue one trace and a
 * viewer can group a pod's CRI calls even when no span is exported.
 * `group/resource` as the registry names them ('' for the core group).
 */
export const TRACED_RESOURCES: ReadonlySet<string> = new Set(['/pods', 'apps/deployments', 'apps/replicasets', 'apps/statefulsets', 'batch/jobs']);

/**
 * The annotation value for an object created under ctx, whatever the export
 * and sampling (flags `00` when unsampled):
 * - ctx holds a local span (the apiserver's request span): its traceparent;
 * - ctx holds only a caller's remote context (tracing off): a new span id in
 *   the caller's trace, same flags — the create is a step of that trace;
 * - nothing: the root of a new, unsampled trace.
 */
export function objectTraceparent(ctx: Context = otelContext.active()): string {
  const sc = trace.getSpanContext(ctx);
  if (hasValidIds(sc)) {
    if (!sc.isRemote) return formatTraceparent(sc);
    return formatTraceparent({ traceId: sc.traceId, spanId: newSpanId(), traceFlags: sc.traceFlags });
  }
  return formatTraceparent({ traceId: newTraceId(), spanId: newSpanId(), traceFlags: TraceFlags.NONE });
}

/** A copy of obj with `kubelab.io/traceparent` set to objectTraceparent(ctx). */
export function withObjectTraceparent<T extends WithAnnotations>(obj: T, ctx: Context = otelContext.active()): T {
  const metadata = obj.metadata ?? {};
  return { ...obj, metadata: { ...metadata, annotations: { ...(metadata.annotations ?? {}), [TRACEPARENT_ANNOTATION]: objectTraceparent(ctx) } } };
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
