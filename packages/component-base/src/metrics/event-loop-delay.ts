// The nodejs_eventloop_lag_* gauges prom-client's default metrics export, with
// the delay a timer saw beyond its period rather than the whole interval:
// Node's monitorEventLoopDelay records the time between two firings of a
// repeating timer, so at the 10 ms that makes it precise an idle process wakes
// 100 times a second, and at any longer period every reading carries that period
// (an idle apiserver read 1.085 s at 1 s).

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

/**
 * How often the event loop is sampled (ms): ten wake-ups a second instead of
 * prom-client's hundred, and a loop blocked for longer than this always shows.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

/** The summary of one scrape interval's samples (seconds, each sample less the period). */
export interface DelaySummary {
  min: number;
  max: number;
  mean: number;
  stddev: number;
  p50: number;
  p90: number;
  p99: number;
}

/** A firing's delay past its due time (ns → s); a firing early by the timer's granularity counts as on time. */
export function delayBeyondPeriod(intervalNs: number, periodMs: number): number {
  return Math.max(0, intervalNs / 1e9 - periodMs / 1e3);
}

type Stat = keyof DelaySummary;

const STATS: ReadonlyArray<readonly [Stat, string]> = [
  ['min', 'The minimum recorded event loop delay.'],
  ['max', 'The maximum recorded event loop delay.'],
  ['mean', 'The mean of the recorded event loop delays.'],
  ['stddev', 'The standard deviation of the recorded event loop delays.'],
  ['p50', 'The 50th percentile of the recorded event loop delays.'],
  ['p90', 'The 90th percentile of the recorded event loop delays.'],
  ['p99', 'The 99th percentile of the recorded event loop delays.'],
];

/**
 * Registers nodejs_eventloop_lag_seconds (how long a setImmediate queued at a
 * scrape waited, shown at the next scrape, as prom-client) and the
 * min/max/mean/stddev/p50/p90/p99 gauges of the delays sampled since the last scrape.
 */
export function registerEventLoopDelay(registry: Registry, periodMs = EVENT_LOOP_SAMPLE_MS): void {
  const histogram = monitorEventLoopDelay({ resolution: periodMs });
  histogram.enable();
  // One snapshot a scrape: a registry calls its gauges' collect one after another in one turn of the loop.
  let snapshot: DelaySummary | undefined;
  const summary = (): DelaySummary => {
    if (snapshot) return snapshot;
    const empty = histogram.count === 0;
    const of = (ns: number) => (empty ? 0 : delayBeyondPeriod(ns, periodMs));
    snapshot = {
      min: of(histogram.min),
      max: of(histogram.max),
      mean: of(histogram.mean),
      stddev: empty ? 0 : histogram.stddev / 1e9,
      p50: of(histogram.percentile(50)),
      p90: of(histogram.percentile(90)),
      p99: of(histogram.percentile(99)),
    };
    histogram.reset();
    setImmediate(() => (snapshot = undefined));
    return snapshot;
  };
  const lag: Gauge = new Gauge({
    name: 'nodejs_eventloop_lag_seconds',
    help: 'Lag of event loop in seconds.',
    registers: [registry],
    collect() {
      const start = process.hrtime.bigint();
      setImmediate(() => lag.set(Number(process.hrtime.bigint() - start) / 1e9));
    },
  });
  for (const [stat, help] of STATS) {
    new Gauge({
      name: `nodejs_eventloop_lag_${stat}_seconds`,
      help,
      registers: [registry],
      collect() {
        this.set(summary()[stat]);
      },
    });
  }
}
