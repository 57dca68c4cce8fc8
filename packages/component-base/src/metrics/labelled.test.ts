// The hand-counted metrics scrape as prom-client's own would.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FastCounter, FastGauge, FastHistogram } from './labelled.js';

describe('FastCounter, FastGauge, FastHistogram', () => {
  it('expose counters, gauges and cumulative histograms in the Prometheus text format', async () => {
    const registry = new Registry();
    const c = new FastCounter(registry, 'x_total', 'Xs.', ['a', 'b']);
    const g = new FastGauge(registry, 'x_inflight', 'In flight.', ['a']);
    const h = new FastHistogram(registry, 'x_seconds', 'Durations.', ['a'], [0.1, 1]);
    c.inc(['1', 'y']);
    c.inc(['1', 'y']);
    c.inc(['2', '']);
    g.add(['q'], 1);
    g.add(['q'], 1);
    g.add(['q'], -1);
    h.observe(['q'], 0.05);
    h.observe(['q'], 0.5);
    h.observe(['q'], 5);
    const lines = (await registry.metrics()).split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        '# TYPE x_total counter',
        'x_total{a="1",b="y"} 2',
        'x_total{a="2",b=""} 1',
        '# TYPE x_inflight gauge',
        'x_inflight{a="q"} 1',
        '# TYPE x_seconds histogram',
        'x_seconds_bucket{le="0.1",a="q"} 1',
        'x_seconds_bucket{le="1",a="q"} 2',
        'x_seconds_bucket{le="+Inf",a="q"} 3',
        'x_seconds_sum{a="q"} 5.55',
        'x_seconds_count{a="q"} 3',
      ]),
    );
    expect(c.get(['1', 'y'])).toBe(2);
    expect(h.count(['q'])).toBe(3);
  });

  it('a process-wide metric shows the same counts in every registry it joins, once each', async () => {
    const c = new FastCounter(undefined, 'shared_total', 'Shared.', ['a']);
    const r1 = new Registry();
    const r2 = new Registry();
    c.registerIn(r1);
    c.registerIn(r1);
    c.registerIn(r2);
    c.inc(['z']);
    expect((await r1.metrics()).match(/^shared_total\{a="z"\} 1$/gm)).toHaveLength(1);
    expect(await r2.metrics()).toContain('shared_total{a="z"} 1');
  });
});
