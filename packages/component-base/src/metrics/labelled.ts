// Counters and histograms on hot paths (every request, every storage call),
// counted per label set by hand and handed to prom-client only when scraped:
// prom-client's own metrics validate and hash their labels on every
// observation, which costs more than a watch-cache read. The exposition is
// prom-client's (the same text a Counter or Histogram writes).

import type { Registry } from 'prom-client';

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

type Values = readonly string[];

function labelsOf(names: readonly string[], values: Values): Record<string, string> {
  const out: Record<string, string> = {};
  names.forEach((n, i) => (out[n] = values[i] ?? ''));
  return out;
}

/** Registers a metric whose values are computed at scrape time (prom-client's metric interface). */
function register(registry: Registry, name: string, help: string, type: 'counter' | 'histogram' | 'gauge', values: () => MetricValue[], reset: () => void): void {
  registry.registerMetric({
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
    reset,
  } as never);
}

/** Counts per label set, exposed as a counter or a gauge. */
class LabelledValues {
  private readonly series = new Map<string, { values: Values; n: number }>();

  /** `registry` undefined: a process-wide metric that components register in theirs (`registerIn`). */
  constructor(
    private readonly type: 'counter' | 'gauge',
    registry: Registry | undefined,
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {
    if (registry) this.registerIn(registry);
  }

  registerIn(registry: Registry): void {
    if (registry.getSingleMetric(this.name)) return;
    register(
      registry,
      this.name,
      this.help,
      this.type,
      () => [...this.series.values()].map((s) => ({ labels: labelsOf(this.labelNames, s.values), value: s.n })),
      // Zeroed, not dropped: a kept child() goes on counting the series it is.
      () => this.series.forEach((s) => (s.n = 0)),
    );
  }

  protected add(values: Values, by: number): void {
    this.child(values).n += by;
  }

  /** The series of one label set, to keep and bump (`n += by`) without a key per call (prom-client's `labels()`). */
  child(values: Values): { n: number } {
    const key = values.join('\u0000');
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { values: [...values], n: 0 }));
    return s;
  }

  /** The value of one label set (tests and benchmarks read it without a scrape). */
  get(values: Values): number {
    return this.series.get(values.join('\u0000'))?.n ?? 0;
  }
}

/** A counter vector: `inc(values)` with the label values in `labelNames` order. */
export class FastCounter extends LabelledValues {
  constructor(registry: Registry | undefined, name: string, help: string, labelNames: readonly string[]) {
    super('counter', registry, name, help, labelNames);
  }

  inc(values: Values, by = 1): void {
    this.add(values, by);
  }
}

/** A gauge vector for in-flight things: `add(values, ±1)` per label set. */
export class FastGauge extends LabelledValues {
  constructor(registry: Registry | undefined, name: string, help: string, labelNames: readonly string[]) {
    super('gauge', registry, name, help, labelNames);
  }

  override add(values: Values, by: number): void {
    super.add(values, by);
  }
}

export class HistogramSeries {
  readonly buckets: Float64Array;
  sum = 0;
  count = 0;
  constructor(
    readonly values: Values,
    private readonly bounds: readonly number[],
  ) {
    this.buckets = new Float64Array(bounds.length + 1);
  }

  observe(v: number): void {
    const bounds = this.bounds;
    let b = 0;
    while (b < bounds.length && v > bounds[b]!) b++;
    this.buckets[b]!++;
    this.sum += v;
    this.count++;
  }

  /** Zeroed, not dropped: a kept child goes on counting the series it is. */
  reset(): void {
    this.buckets.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}

/** A histogram vector: `observe(values, v)`; buckets are upper bounds, ascending (`le`). */
export class FastHistogram {
  private readonly series = new Map<string, HistogramSeries>();

  /** `registry` undefined: a process-wide metric that components register in theirs (`registerIn`). */
  constructor(
    registry: Registry | undefined,
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    readonly bucketBounds: readonly number[],
  ) {
    if (registry) this.registerIn(registry);
  }

  registerIn(registry: Registry): void {
    if (registry.getSingleMetric(this.name)) return;
    register(
      registry,
      this.name,
      this.help,
      'histogram',
      () => this.values(),
      () => this.series.forEach((s) => s.reset()),
    );
  }

  observe(values: Values, v: number): void {
    this.child(values).observe(v);
  }

  /** The series of one label set, to keep and observe into without a key per call (prom-client's `labels()`). */
  child(values: Values): HistogramSeries {
    const key = values.join('\u0000');
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = new HistogramSeries([...values], this.bucketBounds)));
    return s;
  }

  /** Observations of one label set. */
  count(values: Values): number {
    return this.series.get(values.join('\u0000'))?.count ?? 0;
  }

  /** Cumulative buckets with `le` first, then _sum and _count, as prom-client writes a histogram. */
  private values(): MetricValue[] {
    const out: MetricValue[] = [];
    const bounds = this.bucketBounds;
    for (const s of this.series.values()) {
      const labels = labelsOf(this.labelNames, s.values);
      let acc = 0;
      for (let b = 0; b <= bounds.length; b++) {
        acc += s.buckets[b]!;
        out.push({ labels: { le: b < bounds.length ? bounds[b]! : '+Inf', ...labels }, value: acc, metricName: `${this.name}_bucket` });
      }
      out.push({ labels, value: s.sum, metricName: `${this.name}_sum` });
      out.push({ labels, value: s.count, metricName: `${this.name}_count` });
    }
    return out;
  }
}
