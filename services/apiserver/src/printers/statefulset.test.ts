import { describe, expect, it } from 'vitest';
import { printTable } from './index.js';

const now = new Date('2025-06-01T12:00:00Z');
const created = new Date(now.getTime() - 90 * 60_000).toISOString();
const cells = (kind: string, obj: Record<string, unknown>) => printTable(kind, [obj], { now }).rows[0]!.cells;
const headers = (kind: string) =>
  printTable(kind, [], { now })
    .columnDefinitions.map((c) => (c.priority ? `(${c.name})` : c.name))
    .join(' ');

describe('statefulset rows (printStatefulSet)', () => {
  it('READY is ready/desired; wide adds containers and images', () => {
    const sts = {
      metadata: { name: 'web', namespace: 'default', creationTimestamp: created },
      spec: {
        replicas: 3,
        template: {
          spec: {
            containers: [
              { name: 'nginx', image: 'nginx:1.27' },
              { name: 'log', image: 'busybox' },
            ],
          },
        },
      },
      status: { replicas: 2, readyReplicas: 1 },
    };
    expect(headers('StatefulSet')).toBe('Name Ready Age (Containers) (Images)');
    expect(cells('StatefulSet', sts)).toEqual(['web', '1/3', '90m', 'nginx,log', 'nginx:1.27,busybox']);
  });
});

describe('controllerrevision rows (printControllerRevision)', () => {
  it('CONTROLLER is kind.group/name of the controller reference', () => {
    const owner = { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'fluentd', uid: 'u', controller: true };
    const cr = { metadata: { name: 'fluentd-5d8f7c9b4', namespace: 'default', creationTimestamp: created, ownerReferences: [owner] }, data: {}, revision: 2 };
    expect(headers('ControllerRevision')).toBe('Name Controller Revision Age');
    expect(cells('ControllerRevision', cr)).toEqual(['fluentd-5d8f7c9b4', 'daemonset.apps/fluentd', 2, '90m']);
    expect(cells('ControllerRevision', { ...cr, metadata: { ...cr.metadata, ownerReferences: [] } })[1]).toBe('<none>');
  });
});
