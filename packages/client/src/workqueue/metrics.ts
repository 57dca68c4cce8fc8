// Workqueue metrics as client-go's MetricsProvider: one family per concern,
// labelled by queue name, with the upstream names (workqueue_depth, ...).

import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface GaugeMetric {
  inc(): void;
  dec(): void;
}
export interface SettableGaugeMetric {
  set(v: number): void;
}
export interface CounterMetric {
  inc(): void;
}
export interface HistogramMetric {
  observe(v: number): void;
}

/** Creates one queue's metrics (upstream workqueue.MetricsProvider). */
export interface WorkqueueMetricsProvider {
  newDepthMetric(name: string): GaugeMetric;
  newAddsMetric(name: string): CounterMetric;
  newLatencyMetric(name: string): HistogramMetric;
  newWorkDurationMetric(name: string): HistogramMetric;
  newUnfinishedWorkSecondsMetric(name: string): SettableGaugeMetric;
  newLongestRunningProcessorSecondsMetric(name: string): SettableGaugeMetric;
  newRetriesMetric(name: string): CounterMetric;
}

const noop = { inc() {}, dec() {}, set() {}, observe() {} };

export const noopMetricsProvider: WorkqueueMetricsProvider = {
  newDepthMetric: () => noop,
  newAddsMetric: () => noop,
  newLatencyMetric: () => noop,
  newWorkDurationMetric: () => noop,
  newUnfinishedWorkSecondsMetric: () => noop,
  newLongestRunningProcessorSecondsMetric: () => noop,
  newRetriesMetric: () => noop,
};

/** Upstream's buckets: ExponentialBuckets(10e-9, 10, 10), 10 ns to 10 s... x10. */
const DURATION_BUCKETS = Array.from({ length: 10 }, (_, i) => 10e-9 * 10 ** i);

interface Families {
  depth: Gauge<'name'>;
  adds: Counter<'name'>;
  latency: Histogram<'name'>;
  workDuration: Histogram<'name'>;
  unfinished: Gauge<'name'>;
  longest: Gauge<'name'>;
  retries: Counter<'name'>;
}

const families = new WeakMap<Registry, Families>();

function familiesFor(registry: Registry): Families {
  let f = families.get(registry);
  if (f) return f;
  const registers = [registry];
  const labelNames = ['name'] as const;
  f = {
    depth: new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames, registers }),
    adds: new Counter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue', labelNames, registers }),
    latency: new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested.',
      labelNames,
      buckets: DURATION_BUCKETS,
      registers,
    }),
    workDuration: new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes.',
      labelNames,
      buckets: DURATION_BUCKETS,
      registers,
    }),
    unfinished: new Gauge({
      name: 'workqueue_unfinished_work_seconds',
      help: "How many seconds of work has done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
      labelNames,
      registers,
    }),
    longest: new Gauge({
      name: 'workqueue_longest_running_processor_seconds',
      help: 'How many seconds has the longest running processor for workqueue been running.',
      labelNames,
      registers,
    }),
    retries: new Counter({ name: 'workqueue_retries_total', help: 'Total number of retries handled by workqueue', labelNames, registers }),
  };
  families.set(registry, f);
  return f;
}

/** A provider that registers the upstream workqueue_* families in a prom-client registry. */
export function prometheusWorkqueueMetrics(registry: Registry): WorkqueueMetricsProvider {
  const f = familiesFor(registry);
  return {
    newDepthMetric: (name) => ({ inc: () => f.depth.inc({ name }), dec: () => f.depth.dec({ name }) }),
    newAddsMetric: (name) => ({ inc: () => f.adds.inc({ name }) }),
    newLatencyMetric: (name) => ({ observe: (v) => f.latency.observe({ name }, v) }),
    newWorkDurationMetric: (name) => ({ observe: (v) => f.workDuration.observe({ name }, v) }),
    newUnfinishedWorkSecondsMetric: (name) => ({ set: (v) => f.unfinished.set({ name }, v) }),
    newLongestRunningProcessorSecondsMetric: (name) => ({ set: (v) => f.longest.set({ name }, v) }),
    newRetriesMetric: (name) => ({ inc: () => f.retries.inc({ name }) }),
  };
}
