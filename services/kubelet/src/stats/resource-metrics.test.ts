import { describe, expect, it } from 'vitest';
import { formatValue, resourceMetricsText } from './resource-metrics.js';
import type { StatsSummary } from './summary.js';

describe("formatValue (Go's FormatFloat 'g' -1, as the Prometheus client prints)", () => {
  it.each([
    [0, '0'],
    [1, '1'],
    [123456, '123456'],
    [1234567, '1.234567e+06'],
    [10485760, '1.048576e+07'],
    [1764664200, '1.7646642e+09'],
    [0.5, '0.5'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [2.25, '2.25'],
    [-3, '-3'],
  ])('%s → %s', (v, text) => expect(formatValue(v)).toBe(text));
});

const T = '2026-12-02T08:30:00Z';
const MS = Date.parse(T);

describe('/metrics/resource', () => {
  it("writes upstream's families in name order, labels sorted, with each sample's time", () => {
    const summary: StatsSummary = {
      node: { nodeName: 'node-1', startTime: '2026-12-01T00:00:00Z', cpu: { time: T, usageCoreNanoSeconds: 3_500_000_000 }, memory: { time: T, workingSetBytes: 2048 } },
      pods: [
        {
          podRef: { name: 'web', namespace: 'default', uid: 'u1' },
          startTime: T,
          containers: [
            { name: 'b', startTime: '2026-12-02T08:00:00Z', cpu: { time: T, usageCoreNanoSeconds: 1_000_000_000 }, memory: { time: T, workingSetBytes: 1024 } },
            { name: 'a', startTime: '2026-12-02T08:00:00Z', cpu: { time: T, usageCoreNanoSeconds: 500_000_000 }, memory: { time: T, workingSetBytes: 1024 } },
          ],
          cpu: { time: T, usageCoreNanoSeconds: 1_500_000_000 },
          memory: { time: T, workingSetBytes: 2048 },
        },
      ],
    };
    expect(resourceMetricsText(summary).split('\n')).toEqual([
      '# HELP container_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the container in core-seconds',
      '# TYPE container_cpu_usage_seconds_total counter',
      `container_cpu_usage_seconds_total{container="a",namespace="default",pod="web"} 0.5 ${MS}`,
      `container_cpu_usage_seconds_total{container="b",namespace="default",pod="web"} 1 ${MS}`,
      '# HELP container_memory_working_set_bytes [STABLE] Current working set of the container in bytes',
      '# TYPE container_memory_working_set_bytes gauge',
      `container_memory_working_set_bytes{container="a",namespace="default",pod="web"} 1024 ${MS}`,
      `container_memory_working_set_bytes{container="b",namespace="default",pod="web"} 1024 ${MS}`,
      '# HELP container_start_time_seconds [STABLE] Start time of the container since unix epoch in seconds',
      '# TYPE container_start_time_seconds gauge',
      'container_start_time_seconds{container="a",namespace="default",pod="web"} 1.7961984e+09',
      'container_start_time_seconds{container="b",namespace="default",pod="web"} 1.7961984e+09',
      '# HELP node_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the node in core-seconds',
      '# TYPE node_cpu_usage_seconds_total counter',
      `node_cpu_usage_seconds_total 3.5 ${MS}`,
      '# HELP node_memory_working_set_bytes [STABLE] Current working set of the node in bytes',
      '# TYPE node_memory_working_set_bytes gauge',
      `node_memory_working_set_bytes 2048 ${MS}`,
      '# HELP pod_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the pod in core-seconds',
      '# TYPE pod_cpu_usage_seconds_total counter',
      `pod_cpu_usage_seconds_total{namespace="default",pod="web"} 1.5 ${MS}`,
      '# HELP pod_memory_working_set_bytes [STABLE] Current working set of the pod in bytes',
      '# TYPE pod_memory_working_set_bytes gauge',
      `pod_memory_working_set_bytes{namespace="default",pod="web"} 2048 ${MS}`,
      '# HELP resource_scrape_error [STABLE] 1 if there was an error while getting container metrics, 0 otherwise',
      '# TYPE resource_scrape_error gauge',
      'resource_scrape_error 0',
      '# HELP scrape_error [ALPHA] (Deprecated since 1.29.0) 1 if there was an error while getting container metrics, 0 otherwise',
      '# TYPE scrape_error gauge',
      'scrape_error 0',
      '',
    ]);
  });

  it('reports only the scrape error when the summary could not be had', () => {
    const text = resourceMetricsText(undefined);
    expect(text).toContain('\nresource_scrape_error 1\n');
    expect(text).not.toContain('node_cpu_usage_seconds_total');
  });
});
