import type { KubeObject, WatchEvent } from '@kubelab/api';
import { afterEach, describe, expect, it } from 'vitest';
import { WatchDeliveryRecorder, type WatchDeliveryRecord } from './watch-records.js';

const ev = (type: WatchEvent['type'], name: string, namespace?: string): WatchEvent => ({ type, object: { metadata: { name, ...(namespace ? { namespace } : {}) } } as KubeObject });

describe('watch delivery records', () => {
  let rec: WatchDeliveryRecorder | undefined;
  afterEach(() => rec?.stop());

  it.each<[string, [string, string, string, WatchEvent[]][], Record<string, Partial<WatchDeliveryRecord>>]>([
    [
      'sums per watcher user and event type, one record per resource',
      [
        ['system:kube-scheduler', '', 'pods', [ev('ADDED', 'web-1', 'default'), ev('ADDED', 'web-2', 'default')]],
        ['system:node:node-1', '', 'pods', [ev('MODIFIED', 'web-1', 'default')]],
        ['system:kube-scheduler', '', 'pods', [ev('ADDED', 'web-3', 'default'), ev('BOOKMARK', '')]],
        ['system:kube-proxy', 'discovery.k8s.io', 'endpointslices', [ev('MODIFIED', 'web-abc', 'default')]],
      ],
      {
        'kubelab.api.watch.pods': {
          kind: 'WatchDeliveries',
          resource: 'pods',
          group: '',
          deliveries: [
            { user: 'system:kube-scheduler', type: 'ADDED', count: 3, objects: ['default/web-1', 'default/web-2', 'default/web-3'], offsetsMs: [0, 0, 0] },
            { user: 'system:node:node-1', type: 'MODIFIED', count: 1, objects: ['default/web-1'], offsetsMs: [0] },
          ],
        },
        'kubelab.api.watch.endpointslices': {
          group: 'discovery.k8s.io',
          resource: 'endpointslices',
          deliveries: [{ user: 'system:kube-proxy', type: 'MODIFIED', count: 1, objects: ['default/web-abc'], offsetsMs: [0] }],
        },
      },
    ],
    [
      'names at most five objects per sum; cluster-scoped objects by name',
      [['system:kube-controller-manager', '', 'nodes', ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n) => ev('MODIFIED', n))]],
      { 'kubelab.api.watch.nodes': { deliveries: [{ user: 'system:kube-controller-manager', type: 'MODIFIED', count: 7, objects: ['a', 'b', 'c', 'd', 'e'], offsetsMs: [0, 0, 0, 0, 0] }] } },
    ],
    ['bookmarks only: nothing', [['system:kube-scheduler', '', 'pods', [ev('BOOKMARK', '')]]], {}],
  ])('%s', (_name, batches, want) => {
    const sent: Record<string, WatchDeliveryRecord> = {};
    rec = new WatchDeliveryRecorder(
      (subject, data) => (sent[subject] = JSON.parse(data) as WatchDeliveryRecord),
      () => true,
      () => Date.parse('2026-12-03T07:00:00.000Z'),
      60_000,
    );
    for (const [user, group, resource, evs] of batches) rec.delivered(user, group, resource, evs);
    rec.flush(100);
    expect(Object.keys(sent).sort()).toEqual(Object.keys(want).sort());
    for (const [subject, w] of Object.entries(want)) expect(sent[subject]).toMatchObject({ time: '2026-12-03T07:00:00.000Z', windowMs: 100, ...w });
    // A window is sent once.
    const before = Object.keys(sent).length;
    rec.flush(100);
    expect(Object.keys(sent)).toHaveLength(before);
  });

  it('counts nothing while no reader listens', () => {
    const sent: string[] = [];
    let wanted = false;
    rec = new WatchDeliveryRecorder(
      (subject) => sent.push(subject),
      () => wanted,
      Date.now,
      60_000,
    );
    rec.delivered('system:kube-scheduler', '', 'pods', [ev('ADDED', 'a')]);
    rec.flush(100);
    expect(sent).toEqual([]);
    wanted = true;
    rec.delivered('system:kube-scheduler', '', 'pods', [ev('ADDED', 'b')]);
    rec.flush(100);
    expect(sent).toEqual(['kubelab.api.watch.pods']);
  });
});
