// What the HPA reads besides its informers (upstream metrics.MetricsClient
// and the scale client): pod resource metrics from metrics.k8s.io and a
// target's scale subresource, as interfaces the REST implementation and the
// tests' fakes fill. podMetricsFromList is upstream's resource metrics
// client's conversion: a pod's usage is the sum of its containers' (or one
// container's), and a pod missing the resource in a container is left out.

import { Quantity, type KubeObject, type ResourceInfo } from '@kubelab/api';
import type { Scale } from '@kubelab/api';

export interface PodMetric {
  /** Usage in milli-units (millicores, milli-bytes). */
  value: number;
  /** When the sample was taken, ms since the epoch. */
  timestamp: number;
  /** The window the usage was averaged over, ms. */
  windowMs: number;
}

export interface ResourceMetricsClient {
  /** The usage of `resource` per pod selected by `selector` (a label selector string). */
  getResourceMetric(resource: string, namespace: string, selector: string, container?: string): Promise<Map<string, PodMetric>>;
}

export interface ScaleClient {
  get(info: ResourceInfo, namespace: string, name: string): Promise<Scale>;
  update(info: ResourceInfo, namespace: string, scale: Scale): Promise<Scale>;
}

/** metrics.k8s.io/v1beta1 PodMetrics, the fields read. */
export interface PodMetricsItem extends KubeObject {
  timestamp: string;
  window: string;
  containers: { name: string; usage: Record<string, string> }[];
}

/** A Go duration as metrics-server prints it (`10s`, `1m0s`, `500ms`, `1.5s`), in ms. */
export function goDurationMs(text: string): number {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, µs: 0.001, ns: 0.000001 };
  let total = 0;
  for (const [, n, u] of text.matchAll(/([0-9.]+)(h|ms|m|s|us|µs|ns)/g)) total += Number(n) * (units[u!] ?? 0);
  return total;
}

export function podMetricsFromList(items: readonly PodMetricsItem[], resource: string, container?: string): Map<string, PodMetric> {
  if (items.length === 0) throw new Error('no metrics returned from resource metrics API');
  const out = new Map<string, PodMetric>();
  for (const m of items) {
    let sum = 0;
    let missing = false;
    for (const c of m.containers ?? []) {
      if (container !== undefined && c.name !== container) continue;
      const q = c.usage?.[resource] !== undefined ? Quantity.tryParse(c.usage[resource]!) : undefined;
      if (!q) {
        missing = true;
        break;
      }
      sum += q.milliValue();
    }
    if (missing || !m.metadata.name) continue;
    out.set(m.metadata.name, { value: sum, timestamp: Date.parse(m.timestamp), windowMs: goDurationMs(m.window ?? '') });
  }
  return out;
}
