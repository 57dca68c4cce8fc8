// A trace as the server keeps it and the page draws it: spans with hex ids
// and ms times, a trace's summary (root span, services, duration) and the
// waterfall order of its spans. No Node or DOM imports: the page bundles this
// file as it is.

export const SPAN_KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'] as const;
export type SpanKindName = (typeof SPAN_KINDS)[number];
export type SpanStatus = 'UNSET' | 'OK' | 'ERROR';

/** A span as the dashboard keeps it: ids in lowercase hex, times in ms since the epoch, attribute values as text. */
export interface StoredSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: SpanKindName;
  /** The resource's service.name. */
  service: string;
  /** The resource's k8s.node.name, when it names one. */
  node?: string;
  startMs: number;
  durationMs: number;
  status: SpanStatus;
  statusMessage?: string;
  attributes: Record<string, string>;
  events: { name: string; atMs: number }[];
}

export interface TraceSummary {
  traceId: string;
  /** The root span (no parent, or a parent this trace does not hold): the earliest such. */
  rootName: string;
  rootService: string;
  startMs: number;
  durationMs: number;
  spanCount: number;
  services: string[];
  errors: number;
}

export function summarize(traceId: string, spans: readonly StoredSpan[]): TraceSummary {
  const ids = new Set(spans.map((s) => s.spanId));
  let root: StoredSpan | undefined;
  let start = Infinity;
  let end = -Infinity;
  let errors = 0;
  const services = new Set<string>();
  for (const s of spans) {
    start = Math.min(start, s.startMs);
    end = Math.max(end, s.startMs + s.durationMs);
    services.add(s.service);
    if (s.status === 'ERROR') errors++;
    const isRoot = !s.parentSpanId || !ids.has(s.parentSpanId);
    if (isRoot && (!root || s.startMs < root.startMs || (!!root.parentSpanId && !s.parentSpanId && s.startMs === root.startMs))) root = s;
  }
  return {
    traceId,
    rootName: root?.name ?? '',
    rootService: root?.service ?? '',
    startMs: Number.isFinite(start) ? start : 0,
    durationMs: Number.isFinite(end - start) ? end - start : 0,
    spanCount: spans.length,
    services: [...services].sort(),
    errors,
  };
}

/** Spans in waterfall order: depth-first from each root, children by start time, with their depth. */
export function waterfall(spans: readonly StoredSpan[]): { span: StoredSpan; depth: number }[] {
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string, StoredSpan[]>();
  const roots: StoredSpan[] = [];
  for (const s of spans) {
    if (s.parentSpanId && ids.has(s.parentSpanId) && s.parentSpanId !== s.spanId) {
      const c = children.get(s.parentSpanId) ?? [];
      c.push(s);
      children.set(s.parentSpanId, c);
    } else roots.push(s);
  }
  const byStart = (a: StoredSpan, b: StoredSpan) => a.startMs - b.startMs || a.spanId.localeCompare(b.spanId);
  const out: { span: StoredSpan; depth: number }[] = [];
  const seen = new Set<string>();
  const walk = (s: StoredSpan, depth: number) => {
    if (seen.has(s.spanId)) return;
    seen.add(s.spanId);
    out.push({ span: s, depth });
    for (const c of (children.get(s.spanId) ?? []).sort(byStart)) walk(c, depth + 1);
  };
  for (const r of roots.sort(byStart)) walk(r, 0);
  // A parent cycle leaves spans unreached: they follow as roots.
  for (const s of [...spans].sort(byStart)) walk(s, 0);
  return out;
}
