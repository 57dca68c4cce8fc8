// The order `kubelab up` starts its processes in, as a kubeadm node boots:
// the store and the apiserver first, one after the other (each waits for
// the one before to be healthy: kubeadm init waits for the control plane
// before it uploads its bootstrap token); then everything else at once —
// the other static pods, each node's units and the hollow-node workers —
// with a node's own units still in order (containerd before its kubelet,
// systemd's After=containerd.service).

import { isApiReady } from './ha.js';
import type { ComponentSpec } from './topology.js';

export interface StartPlan {
  /** Started one after the other, up to and including the apiserver (HA: its load balancer). */
  serial: ComponentSpec[];
  /** Started together once `serial` is up; each group's members one after the other. */
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
