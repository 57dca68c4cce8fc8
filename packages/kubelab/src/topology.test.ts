import { describe, expect, it } from 'vitest';
import { components, DEFAULT_PORTS, nodePorts } from './topology.js';

describe('local topology', () => {
  const specs = components({ stateDir: '/s', nodes: 2, ports: DEFAULT_PORTS });

  it('starts the control plane first, then containerd, kubelet and kube-proxy per node, named like the compose services', () => {
    expect(specs.map((s) => s.name)).toEqual([
      'nats', 'apiserver', 'scheduler', 'controller-manager',
      'containerd-1', 'kubelet-1', 'kube-proxy-1',
      'containerd-2', 'kubelet-2', 'kube-proxy-2',
    ]);
  });

  it('gives node-1 the upstream ports and shifts further nodes by 100', () => {
    expect(nodePorts(1)).toEqual({ kubelet: 10250, kubeletHealthz: 10248, kubeProxyHealthz: 10256, kubeProxyMetrics: 10249, containerdHealth: 10260 });
    expect(nodePorts(2).kubelet).toBe(10350);
  });

  it('never lets a local kube-proxy apply rules: every node shares the host network namespace', () => {
    for (const s of specs.filter((s) => s.service === 'kube-proxy')) expect(s.args).toContain('--apply=never');
  });

  it('points every node component at its own CRI socket under the state dir', () => {
    const kubelet2 = specs.find((s) => s.name === 'kubelet-2')!;
    const containerd2 = specs.find((s) => s.name === 'containerd-2')!;
    expect(kubelet2.args).toContain('--container-runtime-endpoint=unix:///s/nodes/node-2/run/containerd/containerd.sock');
    expect(containerd2.args).toContain('--address=/s/nodes/node-2/run/containerd/containerd.sock');
  });
});
