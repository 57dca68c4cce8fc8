import { describe, expect, it } from 'vitest';
import { decodeResourceMetrics, parseSampleLine } from './decode.js';

// What the kubelet's /metrics/resource serves (services/kubelet/src/stats/resource-metrics.ts).
const TEXT = `# HELP container_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the container in core-seconds
# TYPE container_cpu_usage_seconds_total counter
container_cpu_usage_seconds_total{container="app",namespace="default",pod="busy"} 12.5 1735689600000
container_cpu_usage_seconds_total{container="side",namespace="default",pod="busy"} 0.25 1735689600000
# TYPE container_memory_working_set_bytes gauge
container_memory_working_set_bytes{container="app",namespace="default",pod="busy"} 1.048576e+06 1735689600000
container_memory_working_set_bytes{container="side",namespace="default",pod="busy"} 4096 1735689600000
container_memory_working_set_bytes{container="lonely",namespace="default",pod="half"} 4096 1735689600000
container_start_time_seconds{container="app",namespace="default",pod="busy"} 1.7356896e+09
node_cpu_usage_seconds_total 100.5 1735689601000
node_memory_working_set_bytes 2.147483648e+09 1735689601000
resource_scrape_error 0
`;

describe('decodeResourceMetrics', () => {
  it('reads the node and each container with cpu in core-nanoseconds and the sample time', () => {
    const b = decodeResourceMetrics(TEXT, 1);
    expect(b.node).toEqual({ timestamp: 1735689601000, cumulativeCpuUsed: 100_500_000_000, memoryUsage: 2147483648, startTime: 0 });
    const busy = b.pods.get('default/busy')!;
    expect(busy.ref).toEqual({ namespace: 'default', name: 'busy' });
    expect(busy.containers.get('app')).toEqual({ timestamp: 1735689600000, cumulativeCpuUsed: 12_500_000_000, memoryUsage: 1048576, startTime: 1735689600000 });
    expect(busy.containers.get('side')?.cumulativeCpuUsed).toBe(250_000_000);
  });
  it('drops a container with only one of cpu and memory, and uses the scrape time when a sample has none', () => {
    const b = decodeResourceMetrics(TEXT, 1);
    expect(b.pods.has('default/half')).toBe(false);
    const nots = decodeResourceMetrics('node_cpu_usage_seconds_total 1\nnode_memory_working_set_bytes 2\n', 42);
    expect(nots.node).toEqual({ timestamp: 42, cumulativeCpuUsed: 1e9, memoryUsage: 2, startTime: 0 });
  });
  it('parses labels with escapes and refuses garbage', () => {
    expect(parseSampleLine('x{a="q\\"uote",b="back\\\\slash"} 3')).toEqual({ name: 'x', labels: { a: 'q"uote', b: 'back\\slash' }, value: 3 });
    expect(parseSampleLine('not a sample')).toBeUndefined();
    expect(decodeResourceMetrics('garbage\n{}\n', 1)).toEqual({ pods: new Map() });
  });
});
