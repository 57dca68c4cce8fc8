// The spans the dashboard has received over OTLP, by trace. Bounded by count:
// past `maxSpans` spans (or `maxBytes`, a rough size estimate; each span's
// own size is capped by SPAN_LIMITS) the least recently updated traces go
// first, whole. A trace's summary (its root span, services, duration) is
// what the Traces view lists; the waterfall reads the trace's spans.

import { summarize, type StoredSpan, type TraceSummary } from './trace-model.js';

export type { TraceSummary };

export interface SpanStoreOptions {
  maxSpans: number;
  /** Most spans one trace keeps (a runaway trace cannot push all others out). */
  maxSpansPerTrace?: number;
  /** Estimated bytes (UTF-16 string lengths plus a per-span overhead). */
  maxBytes?: number;
  /** How often listeners hear that traces changed. */
  notifyMs?: number;
}

interface TraceEntry {
  spans: Map<string, StoredSpan>;
  bytes: number;
  summary: TraceSummary | undefined;
}

const SPAN_OVERHEAD = 400;

function sizeOf(s: StoredSpan): number {
  let n = SPAN_OVERHEAD + 2 * (s.name.length + s.service.length + (s.statusMessage?.length ?? 0));
  for (const [k, v] of Object.entries(s.attributes)) n += 2 * (k.length + v.length) + 32;
  for (const e of s.events) n += 2 * e.name.length + 48;
  return n;
}

export class SpanStore {
  private readonly traces = new Map<string, TraceEntry>();
  private spanCount = 0;
  private bytes = 0;
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private readonly perTrace: number;
  private readonly maxBytes: number;

  constructor(private readonly opts: SpanStoreOptions) {
    this.perTrace = opts.maxSpansPerTrace ?? Math.max(1, Math.min(opts.maxSpans, 5000));
    this.maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  }

  get size(): { spans: number; traces: number; bytes: number } {
    return { spans: this.spanCount, traces: this.traces.size, bytes: this.bytes };
  }

  /** Adds (or replaces, by span id) spans; returns how many were kept. */
  add(spans: readonly StoredSpan[]): { stored: number; dropped: number } {
    let stored = 0;
    let dropped = 0;
    for (const s of spans) {
      let t = this.traces.get(s.traceId);
      if (t)
        this.traces.delete(s.traceId); // re-inserted below: the map's order is least recently updated first
      else t = { spans: new Map(), bytes: 0, summary: undefined };
      this.traces.set(s.traceId, t);
      const prev = t.spans.get(s.spanId);
      if (!prev && t.spans.size >= this.perTrace) {
        dropped++;
        continue;
      }
      const size = sizeOf(s);
      if (prev) {
        t.bytes -= sizeOf(prev);
        this.bytes -= sizeOf(prev);
        this.spanCount--;
      }
      t.spans.set(s.spanId, s);
      t.bytes += size;
      t.summary = undefined;
      this.bytes += size;
      this.spanCount++;
      stored++;
      this.evict(s.traceId);
    }
    if (stored) this.changed();
    return { stored, dropped };
  }

  private evict(keep: string): void {
    for (const [id, t] of this.traces) {
      if (this.spanCount <= this.opts.maxSpans && this.bytes <= this.maxBytes) return;
      if (id === keep) continue;
      this.traces.delete(id);
      this.spanCount -= t.spans.size;
      this.bytes -= t.bytes;
    }
    // Only the trace being added to is left over the bound: its oldest spans go.
    const t = this.traces.get(keep);
    while (t && t.spans.size > 1 && (this.spanCount > this.opts.maxSpans || this.bytes > this.maxBytes)) {
      const [first, s] = t.spans.entries().next().value as [string, StoredSpan];
      t.spans.delete(first);
      const size = sizeOf(s);
      t.bytes -= size;
      this.bytes -= size;
      this.spanCount--;
    }
  }

  has(traceId: string): boolean {
    return this.traces.has(traceId);
  }

  /** The trace's spans by start time, or undefined. */
  trace(traceId: string): StoredSpan[] | undefined {
    const t = this.traces.get(traceId);
    if (!t) return undefined;
    return [...t.spans.values()].sort((a, b) => a.startMs - b.startMs || a.spanId.localeCompare(b.spanId));
  }

  summary(traceId: string): TraceSummary | undefined {
    const t = this.traces.get(traceId);
    if (!t) return undefined;
    t.summary ??= summarize(traceId, [...t.spans.values()]);
    return t.summary;
  }

  /** The most recently started traces first. */
  list(limit = 100): TraceSummary[] {
    const all = [...this.traces.keys()].map((id) => this.summary(id)!);
    return all.sort((a, b) => b.startMs - a.startMs).slice(0, limit);
  }

  /** fn runs at most every notifyMs while spans arrive. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(): void {
    if (this.timer || this.listeners.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      for (const l of this.listeners) l();
    }, this.opts.notifyMs ?? 250);
    this.timer.unref?.();
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.listeners.clear();
  }
}
