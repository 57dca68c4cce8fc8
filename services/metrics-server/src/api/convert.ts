// NodeMetrics and PodMetrics of metrics.k8s.io/v1beta1 (upstream:
// k8s.io/metrics types and metrics-server's pkg/api conversions): the
// object's name, namespace and labels are its node's or pod's, the usage
// CPU a nano-scaled quantity and memory a binary one, the window a Go
// duration.

import { Quantity, type Node, type Pod } from '@kubelab/api';
import { formatDuration } from '@kubelab/component-base';
import type { PodUsage, Usage } from '../storage/storage.js';

export const GROUP = 'metrics.k8s.io';
export const VERSION = 'v1beta1';
export const API_VERSION = `${GROUP}/${VERSION}`;

/** CPU as resource.NewScaledQuantity(nanocores, -9), memory as resource.NewQuantity(bytes, BinarySI), in their canonical strings. */
export function usageList(u: Pick<Usage, 'cpu' | 'memory'>): { cpu: string; memory: string } {
  return { cpu: Quantity.parse(`${Math.max(0, Math.round(u.cpu))}n`).toString(), memory: Quantity.fromValue(Math.max(0, Math.round(u.memory)), 'BinarySI').toString() };
}

const rfc3339 = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

export interface NodeMetrics {
  kind: 'NodeMetrics';
  apiVersion: string;
  metadata: { name: string; creationTimestamp: string; labels?: Record<string, string> };
  timestamp: string;
  window: string;
  usage: { cpu: string; memory: string };
}

export interface PodMetrics {
  kind: 'PodMetrics';
  apiVersion: string;
  metadata: { name: string; namespace: string; creationTimestamp: string; labels?: Record<string, string> };
  timestamp: string;
  window: string;
  containers: { name: string; usage: { cpu: string; memory: string } }[];
}

export function nodeMetrics(node: Node, u: Usage, now: number): NodeMetrics {
  const labels = node.metadata.labels;
  return {
    kind: 'NodeMetrics',
    apiVersion: API_VERSION,
    metadata: { name: node.metadata.name!, creationTimestamp: rfc3339(now), ...(labels ? { labels } : {}) },
    timestamp: rfc3339(u.timestamp),
    window: formatDuration(u.windowMs),
    usage: usageList(u),
  };
}

/** A pod's metrics: its containers in the pod spec's order; timestamp and window of the latest container point. */
export function podMetrics(pod: Pod, u: PodUsage, now: number): PodMetrics {
  const order = (pod.spec?.containers ?? []).map((c) => c.name);
  const containers = [...u.containers].sort((a, b) => {
    const ia = order.indexOf(a.name);
    const ib = order.indexOf(b.name);
    return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib) || (a.name < b.name ? -1 : 1);
  });
  const latest = containers.reduce((m, c) => (c.usage.timestamp > m.usage.timestamp ? c : m), containers[0]!);
  const labels = pod.metadata.labels;
  return {
    kind: 'PodMetrics',
    apiVersion: API_VERSION,
    metadata: { name: pod.metadata.name!, namespace: pod.metadata.namespace ?? 'default', creationTimestamp: rfc3339(now), ...(labels ? { labels } : {}) },
    timestamp: rfc3339(latest.usage.timestamp),
    window: formatDuration(latest.usage.windowMs),
    containers: containers.map((c) => ({ name: c.name, usage: usageList(c.usage) })),
  };
}

/** The group version's discovery document (GET /apis/metrics.k8s.io/v1beta1). */
export function resourceList(): object {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: API_VERSION,
    resources: [
      { name: 'nodes', singularName: '', namespaced: false, kind: 'NodeMetrics', verbs: ['get', 'list'] },
      { name: 'pods', singularName: '', namespaced: true, kind: 'PodMetrics', verbs: ['get', 'list'] },
    ],
  };
}
