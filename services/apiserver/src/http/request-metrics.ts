// apiserver_request_total and apiserver_request_duration_seconds (upstream:
// k8s.io/apiserver/pkg/endpoints/metrics), counted per label set by hand and
// handed to prom-client only when scraped: prom-client's counters and
// histograms validate and hash their labels on every observation, which cost
// more than the rest of a watch-cache read. The exposition is the same.

import type { Registry } from 'prom-client';
import type { RequestObservation } from '../registry/store.js';

/** Upstream's request metric label names, in its order. */
export const REQUEST_LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;
/** Upstream's apiserver_request_duration_seconds buckets. */
export const DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

type Labels = Record<(typeof REQUEST_LABELS)[number], string>;

/** One label set: its requests by code, and the histogram of their durations (per bucket, not cumulative). */
class Series {
  readonly codes = new Map<number, number>();
  readonly buckets = new Float64Array(DURATION_BUCKETS.length + 1);
  sum = 0;
  count = 0;
  constructor(readonly labels: Labels) {}

  observe(code: number, seconds: number): void {
    this.codes.set(code, (this.codes.get(code) ?? 0) + 1);
    let b = 0;
    while (b < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[b]!) b++;
    this.buckets[b]!++;
    this.sum += seconds;
    this.count++;
  }
}

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

export class RequestMetrics {
  private readonly series = new Map<string, Series>();

  /** Registers both metrics in `registry` (as prom-client metric objects: scraped through `get()`). */
  constructor(registry: Registry) {
    const metric = (name: string, help: string, type: 'counter' | 'histogram', values: () => MetricValue[]) => ({
      name,
      help,
      type,
      aggregator: 'sum',
      get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
      reset: () => this.series.clear(),
    });
    registry.registerMetric(
      metric('apiserver_request_total', 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.', 'counter', () =>
        this.totals(),
      ) as never,
    );
    registry.registerMetric(
      metric(
        'apiserver_request_duration_seconds',
        'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
        'histogram',
        () => this.durations(),
      ) as never,
    );
  }

  /** One finished request. */
  observe(r: RequestObservation): void {
    // dry_run holds the dryRun query value (`All`) or is empty; component is `apiserver` as upstream's.
    const dryRun = r.dryRun ? 'All' : '';
    const key = `${r.verb}|${dryRun}|${r.group}|${r.version}|${r.resource}|${r.subresource}|${r.scope}`;
    let s = this.series.get(key);
    if (!s) {
      const labels: Labels = { verb: r.verb, dry_run: dryRun, group: r.group, version: r.version, resource: r.resource, subresource: r.subresource, scope: r.scope, component: 'apiserver' };
      this.series.set(key, (s = new Series(labels)));
    }
    s.observe(r.code, r.seconds);
  }

  private totals(): MetricValue[] {
    const out: MetricValue[] = [];
    for (const s of this.series.values()) for (const [code, n] of s.codes) out.push({ labels: { ...s.labels, code: String(code) }, value: n });
    return out;
  }

  /** Cumulative buckets with `le` first, then _sum and _count, as prom-client writes a histogram. */
  private durations(): MetricValue[] {
    const out: MetricValue[] = [];
    const name = 'apiserver_request_duration_seconds';
    for (const s of this.series.values()) {
      let acc = 0;
      for (let b = 0; b <= DURATION_BUCKETS.length; b++) {
        acc += s.buckets[b]!;
        out.push({ labels: { le: b < DURATION_BUCKETS.length ? DURATION_BUCKETS[b]! : '+Inf', ...s.labels }, value: acc, metricName: `${name}_bucket` });
      }
      out.push({ labels: s.labels, value: s.sum, metricName: `${name}_sum` });
      out.push({ labels: s.labels, value: s.count, metricName: `${name}_count` });
    }
    return out;
  }
}
