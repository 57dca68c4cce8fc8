// Storage calls as child spans of the request that made them (upstream: the
// etcd3 store's "Create etcd3" / "GuaranteedUpdate etcd3" spans over the etcd
// client's gRPC spans). Here one CLIENT span per KV call, named by the
// operation only (`KV create`, `KV update`, `KV delete`, `KV get`) so names stay
// few and stable; the key and revisions are attributes. Only inside a request
// span: the watch cache and bootstrap never start traces of their own. The
// request's context is handed in (RequestContext.traceContext), and the KV
// span's own context handed to the write, whose message carries it to the
// watch cache's CONSUMER span (watch-cache ingestion, see consume.ts).

import { context as otelContext, recordError, SpanKind, trace, type Context, type Tracing } from '@kubelab/tracing';

export type KvOperation = 'create' | 'update' | 'delete' | 'get';

/** The span names, in one list (documented in the apiserver README). */
export const STORAGE_SPAN_NAMES: Record<KvOperation, string> = {
  create: 'KV create',
  update: 'KV update',
  delete: 'KV delete',
  get: 'KV get',
};

export interface StorageCall {
  op: KvOperation;
  bucket: string;
  key: string;
  /** The revision a compare-and-swap expects (update, delete). */
  expectedRevision?: number;
}

/** A lost compare-and-swap is an answer, not a failure of the call (as etcd's Txn with a false compare). */
function casOutcome(err: unknown): string | undefined {
  const e = err as { name?: unknown; kind?: unknown } | null;
  return e?.name === 'StorageError' && (e.kind === 'exists' || e.kind === 'stale') ? e.kind : undefined;
}

/**
 * Runs fn in a CLIENT span under `parent` (default: the active context) and
 * gives fn the span's context; runs fn bare when the parent has no span.
 */
export async function storageSpan<T>(tracing: Tracing, call: StorageCall, fn: (ctx?: Context) => Promise<T>, parent: Context = otelContext.active()): Promise<T> {
  if (!trace.getSpan(parent)) return fn();
  const span = tracing.tracer.startSpan(
    STORAGE_SPAN_NAMES[call.op],
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system.name': 'nats',
        'db.operation.name': call.op,
        'db.namespace': call.bucket,
        key: call.key,
        ...(call.expectedRevision !== undefined ? { 'kv.expected_revision': call.expectedRevision } : {}),
      },
    },
    parent,
  );
  try {
    const ctx = trace.setSpan(parent, span);
    const out = await otelContext.with(ctx, () => fn(ctx));
    const rev = typeof out === 'number' ? out : (out as { revision?: unknown } | undefined)?.revision;
    if (typeof rev === 'number') span.setAttribute('kv.revision', rev);
    if (call.op === 'get' && out === undefined) span.setAttribute('kv.found', false);
    return out;
  } catch (err) {
    const cas = casOutcome(err);
    if (cas) span.setAttribute('kv.conflict', cas);
    else recordError(span, err);
    throw err;
  } finally {
    span.end();
  }
}
