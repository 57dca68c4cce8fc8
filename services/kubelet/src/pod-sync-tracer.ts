// Each pod sync in a `syncPod` span (upstream pkg/kubelet/kubelet.go SyncPod's
// tracer.Start(ctx, "syncPod") and the ctx it passes to every CRI and API call
// it makes): the span continues the pod's trace (the apiserver recorded the
// creating request's context on the pod), so the sync's CRI calls and status
// writes join that trace.

import { ROOT_CONTEXT, contextFromObject, hasSpanContext, trace, type Context, type Tracing } from '@kubelab/tracing';
import type { RuntimeService } from './kuberuntime/cri.js';
import type { RuntimeManager } from './kuberuntime/manager.js';
import type { DesiredPod } from './pod/pod-manager.js';
import type { ObjectSource } from './volumemanager/sources.js';

/** A traced sync's call paths; absent: the kubelet's own, untraced. */
export interface SyncScope {
  runtime: RuntimeManager;
  objects: ObjectSource;
}

export type SyncResult = { retryAt?: number } | void;

export interface PodSyncTracerOptions {
  /** Absent (export off): no span, but a starting pod's CRI calls still carry its trace context. */
  tracing?: Tracing | undefined;
  rt: RuntimeService;
  runtimeManager: RuntimeManager;
  /** Where a sync reads ConfigMaps and Secrets; `ctx`: the traced sync's context (absent: an untraced one). */
  objects: (ctx: Context | undefined) => ObjectSource;
}

export class PodSyncTracer {
  constructor(private readonly o: PodSyncTracerOptions) {}

  /** Runs one sync of pod `uid` in a `syncPod` span; `continueTrace`: the span is a child of the pod's own trace, else a root. */
  run(uid: string, d: DesiredPod | undefined, continueTrace: boolean, sync: (scope?: SyncScope) => Promise<SyncResult>): Promise<SyncResult> {
    const pod = d && !d.static ? d.pod : undefined;
    const attributes = () => ({ 'k8s.pod.uid': uid, ...(d ? { 'k8s.pod.name': d.pod.metadata.name ?? '', 'k8s.namespace.name': d.pod.metadata.namespace ?? '' } : {}) });
    const parent = continueTrace ? contextFromObject(pod) : ROOT_CONTEXT;
    const tracing = this.o.tracing;
    // Export off: no span; a starting pod's CRI calls carry its own trace context (the annotation),
    // so the runtime's call records carry the pod start's trace id.
    if (!tracing) return sync(continueTrace && hasSpanContext(parent) ? this.scope(parent, false) : undefined);
    // The span's context is handed down explicitly (scope): the kubelet runs the sync context manager.
    // An unsampled span of a pod start still hands its (flag 00) context to the runtime.
    return tracing.withSpan(
      'syncPod',
      (span) => {
        const ctx = trace.setSpan(parent, span);
        return sync(span.isRecording() || (continueTrace && hasSpanContext(ctx)) ? this.scope(ctx, true) : undefined);
      },
      { parent, attributes },
    );
  }

  /**
   * What one traced sync calls through: the runtime manager on a CRI view whose
   * calls are children of ctx, and ConfigMap/Secret reads under ctx (when they are requests).
   */
  private scope(ctx: Context, tracedReads: boolean): SyncScope {
    const rt = this.o.rt.withTraceContext?.(ctx);
    const objects = this.o.objects(tracedReads ? ctx : undefined);
    return { runtime: this.o.runtimeManager.withCalls(rt ?? this.o.rt, objects), objects };
  }
}
