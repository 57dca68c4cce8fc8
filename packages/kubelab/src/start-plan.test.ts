import { describe, expect, it } from 'vitest';
import { startConcurrency, startPlan } from './start-plan.js';
import type { ComponentSpec } from './topology.js';

const spec = (name: string, service: string, node?: string): ComponentSpec => ({
  name,
  service,
  args: [],
  ...(node ? { unit: { node, root: `/r/${node}`, name: service as 'kubelet' } } : {}),
});
const names = (p: ReturnType<typeof startPlan>) => ({ serial: p.serial.map((s) => s.name), groups: p.groups.map((g) => g.map((s) => s.name)) });

describe('startPlan', () => {
  it.each([
    {
      name: 'one node: the store and apiserver first, then the rest at once, a node in its units order',
      ha: false,
      specs: [
        spec('nats', 'nats'),
        spec('apiserver', 'apiserver'),
        spec('scheduler', 'scheduler'),
        spec('controller-manager', 'controller-manager'),
        spec('containerd-control-plane', 'containerd', 'control-plane'),
        spec('kubelet-control-plane', 'kubelet', 'control-plane'),
        spec('kube-proxy-control-plane', 'kube-proxy', 'control-plane'),
        spec('containerd-node-1', 'containerd', 'node-1'),
        spec('kubelet-node-1', 'kubelet', 'node-1'),
        spec('hollow-node-1', 'kubemark'),
        spec('hollow-node-2', 'kubemark'),
      ],
      want: {
        serial: ['nats', 'apiserver'],
        groups: [
          ['scheduler'],
          ['controller-manager'],
          ['containerd-control-plane', 'kubelet-control-plane', 'kube-proxy-control-plane'],
          ['containerd-node-1', 'kubelet-node-1'],
          ['hollow-node-1'],
          ['hollow-node-2'],
        ],
      },
    },
    {
      name: 'HA: every store member, every apiserver and the load balancer first',
      ha: true,
      specs: [
        spec('nats-1', 'nats'),
        spec('nats-2', 'nats'),
        spec('nats-3', 'nats'),
        spec('apiserver-1', 'apiserver'),
        spec('apiserver-2', 'apiserver'),
        spec('haproxy', 'haproxy'),
        spec('scheduler-1', 'scheduler'),
      ],
      want: { serial: ['nats-1', 'nats-2', 'nats-3', 'apiserver-1', 'apiserver-2', 'haproxy'], groups: [['scheduler-1']] },
    },
    {
      name: 'no apiserver: the order as given',
      ha: false,
      specs: [spec('nats', 'nats'), spec('containerd-node-1', 'containerd', 'node-1')],
      want: { serial: ['nats', 'containerd-node-1'], groups: [] },
    },
  ])('$name', ({ specs, ha, want }) => {
    expect(names(startPlan(specs, ha))).toEqual(want);
  });
});

describe('startConcurrency', () => {
  it.each([
    [1, 4],
    [2, 4],
    [8, 16],
  ])('%i cores: %i groups at a time', (cpus, want) => {
    expect(startConcurrency(cpus)).toBe(want);
  });
});
