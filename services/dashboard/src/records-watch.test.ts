import { describe, expect, it } from 'vitest';
import { clientLane, watchDeliveryMessages } from './records.js';

const T = Date.parse('2026-12-03T07:00:00.000Z');
const rec = (resource: string, deliveries: unknown[]) => JSON.stringify({ kind: 'WatchDeliveries', time: '2026-12-03T07:00:00.000Z', windowMs: 100, group: '', resource, deliveries });
const line = (m: ReturnType<typeof watchDeliveryMessages>[number]) =>
  `+${m.time - T} ${m.from} → ${m.to}${m.node ? ` [${m.node}]` : ''} ${m.method} ${m.objectKind}${m.name ? ` ${m.namespace ? `${m.namespace}/` : ''}${m.name}` : ''} (${m.detail})`;

describe('watch delivery records → informer messages', () => {
  it.each<[string, string, string[]]>([
    [
      'one message per named object, at its own time; lanes from the watcher user',
      rec('pods', [
        { user: 'system:kube-scheduler', type: 'ADDED', count: 1, objects: ['default/web-1'], offsetsMs: [12] },
        { user: 'system:node:node-1', type: 'MODIFIED', count: 2, objects: ['default/web-1', 'default/web-2'], offsetsMs: [40, 41] },
        { user: 'system:kube-controller-manager', type: 'MODIFIED', count: 1, objects: ['default/web-1'], offsetsMs: [3] },
      ]),
      [
        '+12 apiserver → scheduler ADDED Pod default/web-1 (informer event)',
        '+40 apiserver → kubelet(node-1) [node-1] MODIFIED Pod default/web-1 (informer event)',
        '+41 apiserver → kubelet(node-1) [node-1] MODIFIED Pod default/web-2 (informer event)',
        '+3 apiserver → controller-manager MODIFIED Pod default/web-1 (informer event)',
      ],
    ],
    [
      'the rest of a sum as one message; cluster-scoped names',
      rec('nodes', [{ user: 'system:kube-controller-manager', type: 'MODIFIED', count: 7, objects: ['node-1', 'node-2'], offsetsMs: [0, 5] }]),
      [
        '+0 apiserver → controller-manager MODIFIED Node node-1 (informer event)',
        '+5 apiserver → controller-manager MODIFIED Node node-2 (informer event)',
        '+0 apiserver → controller-manager MODIFIED Node (5 more nodes events in 100 ms)',
      ],
    ],
    [
      'no names: one message for the sum',
      rec('endpointslices', [{ user: 'system:kube-proxy', type: 'MODIFIED', count: 1 }]),
      ['+0 apiserver → kube-proxy MODIFIED EndpointSlice (1 endpointslices event in 100 ms)'],
    ],
    ["the dashboard's own deliveries are left out", rec('pods', [{ user: 'system:serviceaccount:kube-system:kubelab-dashboard', type: 'ADDED', count: 1, objects: ['default/web-1'] }]), []],
    ['not a delivery record', JSON.stringify({ verb: 'create', resource: 'pods' }), []],
    ['garbage', '{"kind":"WatchDeliveries","resource":"pods","deliveries":[null, 3, {"user":1}]}', []],
    ['not JSON', 'nope', []],
  ])('%s', (_name, data, want) => {
    expect(watchDeliveryMessages(data, T).map(line)).toEqual(want);
  });
});

describe('lanes of the watchers', () => {
  it.each([
    ['system:kube-scheduler', 'scheduler'],
    ['system:node:node-2', 'kubelet(node-2)'],
    ['system:kube-controller-manager', 'controller-manager'],
    ['system:serviceaccount:kube-system:replicaset-controller', 'controller-manager'],
    ['system:serviceaccount:kube-system:kube-network-policies', 'kube-network-policies'],
    ['system:serviceaccount:kube-system:coredns', 'coredns'],
    ['system:serviceaccount:kube-system:kubelab-dashboard', 'dashboard'],
    ['system:kube-proxy', 'kube-proxy'],
  ])('%s → %s', (user, lane) => {
    expect(clientLane(user)).toBe(lane);
  });
});
