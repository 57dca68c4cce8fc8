// The order `kubelab up` starts its processes in: the store and the
// apiserver one after the other (kubeadm init waits for the control plane
// before it uploads its bootstrap token), then the rest together, as a
// kubeadm node's kubelet starts every static pod at once; a node's own units
// stay in order (containerd before its kubelet, systemd's After=).

import { isApiReady } from './ha.js';
import type { ComponentSpec } from './topology.js';

export interface StartPlan {
  /** Started one after the other, up to and including the apiserver (HA: its load balancer). */
  serial: ComponentSpec[];
  /** Started together once `serial` is up (a few groups at a time); each group's members one after the other. */
  groups: ComponentSpec[][];
}

export function startPlan(specs: readonly ComponentSpec[], ha: boolean): StartPlan {
  const api = specs.findIndex((s) => isApiReady(s, ha));
  // No apiserver among the specs: nothing waits for one, the order is kept as given.
  if (api < 0) return { serial: [...specs], groups: [] };
  const groups: ComponentSpec[][] = [];
  const byNode = new Map<string, ComponentSpec[]>();
  for (const spec of specs.slice(api + 1)) {
    const node = spec.unit?.node;
    const group = node === undefined ? undefined : byNode.get(node);
    if (group) {
      group.push(spec);
      continue;
    }
    groups.push([spec]);
    if (node !== undefined) byNode.set(node, groups[groups.length - 1]!);
  }
  return { serial: specs.slice(0, api + 1), groups };
}

/** Groups starting at once: enough to overlap the processes' loading, few enough that a large cluster's health checks keep their deadline. */
export function startConcurrency(cpus: number): number {
  return Math.max(4, 2 * cpus);
}
