// ListMetricDescriptors and ListPodSandboxMetrics: the cAdvisor metrics the
// kubelet's /metrics/cadvisor serves when pod and container stats come from
// the runtime (feature gate PodAndContainerStatsFromCRI). Each container's
// series carry cAdvisor's label keys; values come from the same usage the
// stats RPCs report.

import type { Runtime } from './runtime.js';
import { nowNanos } from './time.js';

/** cAdvisor's labels of a container series, in label_values order. */
export const CONTAINER_LABEL_KEYS = ['container', 'id', 'image', 'name', 'namespace', 'pod'];

interface Descriptor {
  name: string;
  help: string;
  type: 'COUNTER' | 'GAUGE';
}

export const DESCRIPTORS: Descriptor[] = [
  { name: 'container_cpu_usage_seconds_total', help: 'Cumulative cpu time consumed in seconds.', type: 'COUNTER' },
  { name: 'container_memory_usage_bytes', help: 'Current memory usage in bytes, including all memory regardless of when it was accessed', type: 'GAUGE' },
  { name: 'container_memory_working_set_bytes', help: 'Current working set in bytes.', type: 'GAUGE' },
  { name: 'container_memory_rss', help: 'Size of RSS in bytes.', type: 'GAUGE' },
  { name: 'container_spec_memory_limit_bytes', help: 'Memory limit for the container.', type: 'GAUGE' },
  { name: 'container_fs_usage_bytes', help: 'Number of bytes that are consumed by the container on this filesystem.', type: 'GAUGE' },
];

export function metricDescriptors() {
  return DESCRIPTORS.map((d) => ({ name: d.name, help: d.help, labelKeys: CONTAINER_LABEL_KEYS }));
}

/** One PodSandboxMetrics per ready sandbox, with a series per descriptor for each running container. */
export async function podSandboxMetrics(rt: Runtime) {
  const out = [];
  for (const sb of rt.listSandboxes({ state: 'SANDBOX_READY' })) {
    const md = sb.config.metadata!;
    const containerMetrics = [];
    for (const c of rt.listContainers({ podSandboxId: sb.id, state: 'CONTAINER_RUNNING' })) {
      const u = await rt.usage(c);
      const ts = nowNanos().toString();
      const labels = [c.config.metadata?.name ?? '', `/kubepods/pod${md.uid}/${c.id}`, c.config.image?.image ?? '', c.id, md.namespace, md.name];
      // The CPU counter is in nanoseconds: the value field is an integer (containerd reports cAdvisor's seconds × 1e9 too).
      const values: Record<string, bigint | number> = {
        container_cpu_usage_seconds_total: u?.cpuCoreNanos ?? 0n,
        container_memory_usage_bytes: u?.memoryBytes ?? 0,
        container_memory_working_set_bytes: u?.memoryBytes ?? 0,
        container_memory_rss: u?.memoryBytes ?? 0,
        container_spec_memory_limit_bytes: u?.limit ?? 0,
        container_fs_usage_bytes: u?.fsBytes ?? 0,
      };
      containerMetrics.push({
        containerId: c.id,
        metrics: DESCRIPTORS.map((d) => ({ name: d.name, timestamp: ts, metricType: d.type, labelValues: labels, value: { value: String(values[d.name] ?? 0) } })),
      });
    }
    out.push({ podSandboxId: sb.id, metrics: [], containerMetrics });
  }
  return out;
}
