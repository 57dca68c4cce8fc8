// Tiny fixture builders for tests (upstream testing/wrappers.go st.MakePod()/MakeNode()).

import type { Affinity, Container, Node, Pod, Taint, Toleration } from '@kubelab/api';

export interface NodeOpts {
  cpu?: string;
  memory?: string;
  pods?: string;
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
  extra?: Record<string, string>;
}

export function makeNode(name: string, o: NodeOpts = {}): Node {
  const allocatable = { cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi', pods: o.pods ?? '110', ...o.extra };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...o.labels } },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: { capacity: allocatable, allocatable, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

export interface PodOpts {
  namespace?: string;
  cpu?: string;
  memory?: string;
  extra?: Record<string, string>;
  containers?: Container[];
  tolerations?: Toleration[];
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  hostPorts?: { port: number; protocol?: 'TCP' | 'UDP'; ip?: string }[];
  nodeName?: string;
  priority?: number;
  schedulerName?: string;
  uid?: string;
}

export function makePod(name: string, o: PodOpts = {}): Pod {
  const requests: Record<string, string> = { ...o.extra };
  if (o.cpu) requests.cpu = o.cpu;
  if (o.memory) requests.memory = o.memory;
  const container: Container = {
    name: 'c',
    image: 'nginx',
    ...(Object.keys(requests).length ? { resources: { requests } } : {}),
    ...(o.hostPorts ? { ports: o.hostPorts.map((p) => ({ containerPort: p.port, hostPort: p.port, protocol: p.protocol ?? 'TCP', ...(p.ip ? { hostIP: p.ip } : {}) })) } : {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: o.namespace ?? 'default', uid: o.uid ?? `uid-${name}` },
    spec: {
      containers: o.containers ?? [container],
      schedulerName: o.schedulerName ?? 'default-scheduler',
      ...(o.tolerations ? { tolerations: o.tolerations } : {}),
      ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
      ...(o.affinity ? { affinity: o.affinity } : {}),
      ...(o.nodeName ? { nodeName: o.nodeName } : {}),
      ...(o.priority !== undefined ? { priority: o.priority } : {}),
    },
    status: { phase: 'Pending' },
  };
}

/** A pod already bound to a node (for NodeInfo fixtures). */
export function boundPod(name: string, nodeName: string, o: PodOpts = {}): Pod {
  return makePod(name, { ...o, nodeName });
}
