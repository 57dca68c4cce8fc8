import { describe, expect, it } from 'vitest';
import type { Node, PersistentVolume, PersistentVolumeClaim } from '../../index.js';
import { findMatchingVolume } from '../../index.js';

const pv = (name: string, size: string, o: Partial<NonNullable<PersistentVolume['spec']>> & { labels?: Record<string, string>; phase?: string } = {}): PersistentVolume => {
  const { labels, phase, ...spec } = o;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: { capacity: { storage: size }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/data/${name}` }, ...spec },
    status: { phase: (phase ?? 'Available') as 'Available' },
  };
};
const claim = (size: string, spec: Partial<NonNullable<PersistentVolumeClaim['spec']>> = {}): PersistentVolumeClaim => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'default', uid: 'u1' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } }, storageClassName: '', ...spec },
});
const node = (name: string): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } } });
const onNode = (n: string) => ({ nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In' as const, values: [n] }] }] } } });

describe('findMatchingVolume (FindMatchingVolume)', () => {
  it.each<[string, PersistentVolumeClaim, PersistentVolume[], Node | undefined, boolean, string | undefined]>([
    ['the smallest that fits', claim('1Gi'), [pv('big', '10Gi'), pv('small', '2Gi'), pv('tiny', '500Mi')], undefined, false, 'small'],
    ['none large enough', claim('20Gi'), [pv('big', '10Gi')], undefined, false, undefined],
    ['same class only', claim('1Gi', { storageClassName: 'fast' }), [pv('slow', '1Gi', { storageClassName: 'slow' }), pv('fast', '5Gi', { storageClassName: 'fast' })], undefined, false, 'fast'],
    ['all access modes', claim('1Gi', { accessModes: ['ReadWriteMany'] }), [pv('rwo', '1Gi'), pv('rwx', '1Gi', { accessModes: ['ReadWriteOnce', 'ReadWriteMany'] })], undefined, false, 'rwx'],
    ['the selector', claim('1Gi', { selector: { matchLabels: { tier: 'db' } } }), [pv('a', '1Gi'), pv('b', '2Gi', { labels: { tier: 'db' } })], undefined, false, 'b'],
    ['bound ones skipped', claim('1Gi'), [pv('taken', '1Gi', { claimRef: { namespace: 'other', name: 'x' }, phase: 'Bound' })], undefined, false, undefined],
    ['pre-bound wins over a smaller one', claim('1Gi'), [pv('small', '1Gi'), pv('mine', '5Gi', { claimRef: { namespace: 'default', name: 'data' } })], undefined, false, 'mine'],
    ['delayed binding without a node: none', claim('1Gi'), [pv('a', '1Gi')], undefined, true, undefined],
    ['with a node: its affinity', claim('1Gi'), [pv('n1', '1Gi', onNode('node-1')), pv('n2', '2Gi', onNode('node-2'))], node('node-2'), true, 'n2'],
  ])('%s', (_, c, volumes, n, delay, want) => {
    expect(findMatchingVolume(c, volumes, n, new Set(), delay)?.metadata.name).toBe(want);
  });
});
