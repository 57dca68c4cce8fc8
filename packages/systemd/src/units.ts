// The node's units as their packages install them: the unit file's path,
// Description= and Documentation= (kubernetes/release's kubelet.service,
// containerd's containerd.service, node-problem-detector's
// config/systemd/node-problem-detector.service). kube-proxy runs as a
// DaemonSet pod under kubeadm; kubelab's local runner runs it as a unit.

import type { ServiceUnitDefinition } from './manager.js';

export type NodeUnitName = 'kubelet' | 'containerd' | 'kube-proxy' | 'node-problem-detector' | 'kube-network-policies';

type Catalogue = Record<NodeUnitName, Omit<ServiceUnitDefinition, 'execStart'>>;

export const NODE_UNITS: Catalogue = {
  kubelet: {
    unit: 'kubelet.service',
    description: 'kubelet: The Kubernetes Node Agent',
    fragmentPath: '/usr/lib/systemd/system/kubelet.service',
    documentation: ['https://kubernetes.io/docs/'],
    identifier: 'kubelet',
    type: 'simple',
  },
  containerd: {
    unit: 'containerd.service',
    description: 'containerd container runtime',
    fragmentPath: '/usr/lib/systemd/system/containerd.service',
    documentation: ['https://containerd.io'],
    identifier: 'containerd',
    type: 'notify',
    // containerd.service's KillMode=process: a restart leaves the shims and the containers running.
    killMode: 'process',
  },
  'kube-proxy': {
    unit: 'kube-proxy.service',
    description: 'kube-proxy: The Kubernetes Network Proxy',
    fragmentPath: '/usr/lib/systemd/system/kube-proxy.service',
    documentation: ['https://kubernetes.io/docs/reference/command-line-tools-reference/kube-proxy/'],
    identifier: 'kube-proxy',
    type: 'simple',
  },
  'node-problem-detector': {
    unit: 'node-problem-detector.service',
    description: 'Node problem detector',
    fragmentPath: '/usr/lib/systemd/system/node-problem-detector.service',
    documentation: ['https://github.com/kubernetes/node-problem-detector'],
    identifier: 'node-problem-detector',
    type: 'simple',
  },
  // A DaemonSet pod upstream (kubernetes-sigs/kube-network-policies); kubelab runs the NetworkPolicy agent as a node unit, as kube-proxy.
  'kube-network-policies': {
    unit: 'kube-network-policies.service',
    description: 'kube-network-policies: The Kubernetes NetworkPolicy agent',
    fragmentPath: '/usr/lib/systemd/system/kube-network-policies.service',
    documentation: ['https://github.com/kubernetes-sigs/kube-network-policies'],
    identifier: 'kube-network-policies',
    type: 'simple',
  },
};

/** A catalogue unit with the ExecStart it runs. */
export function nodeUnit(name: NodeUnitName, execStart: string): ServiceUnitDefinition {
  return { ...NODE_UNITS[name], execStart };
}
