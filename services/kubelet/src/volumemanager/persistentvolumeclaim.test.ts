import type { PersistentVolume, PersistentVolumeClaim } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import type { VolumeHost } from './plugin.js';
import { resolveClaim } from './persistentvolumeclaim.js';

const claim = (o: Partial<PersistentVolumeClaim['metadata']> & { volumeName?: string; phase?: 'Pending' | 'Bound' } = {}): PersistentVolumeClaim => {
  const { volumeName, phase, ...meta } = o;
  return { metadata: { name: 'data', namespace: 'default', uid: 'c1', ...meta }, spec: { ...(volumeName ? { volumeName } : {}) }, status: { phase: phase ?? 'Pending' } };
};
const pv = (uid?: string): PersistentVolume => ({ metadata: { name: 'pv1' }, spec: { hostPath: { path: '/mnt/pv1' }, ...(uid ? { claimRef: { namespace: 'default', name: 'data', uid } } : {}) } });

function host(c: PersistentVolumeClaim | undefined, v: PersistentVolume | undefined): VolumeHost {
  return {
    rootDir: '/var/lib/kubelet',
    allocatable: () => ({}),
    now: () => new Date(),
    sources: { configMap: async () => undefined, secret: async () => undefined, persistentVolumeClaim: async () => c, persistentVolume: async () => v },
  };
}

describe('resolveClaim (getPVCExtractPV)', () => {
  it.each<[string, PersistentVolumeClaim | undefined, PersistentVolume | undefined, string]>([
    ['no claim', undefined, undefined, 'error processing PVC default/data: failed to fetch PVC from API server: persistentvolumeclaims "data" not found'],
    ['unbound', claim(), undefined, 'error processing PVC default/data: PVC is not bound'],
    ['being deleted', claim({ deletionTimestamp: '2026-01-01T00:00:00Z', volumeName: 'pv1', phase: 'Bound' }), pv('c1'), 'error processing PVC default/data: PVC is being deleted'],
    ['volume gone', claim({ volumeName: 'pv1', phase: 'Bound' }), undefined, 'error processing PVC default/data: failed to fetch PV pv1 from API server: persistentvolumes "pv1" not found'],
    [
      'volume bound elsewhere',
      claim({ volumeName: 'pv1', phase: 'Bound' }),
      pv('other'),
      'error processing PVC default/data: found PV object "pv1" but its ClaimRef.UID "other" does not point to claim.UID "c1"',
    ],
  ])('%s', async (_, c, v, want) => {
    await expect(resolveClaim(host(c, v), 'default', 'data')).rejects.toThrow(want);
  });

  it('a bound claim resolves to its volume', async () => {
    expect((await resolveClaim(host(claim({ volumeName: 'pv1', phase: 'Bound' }), pv('c1')), 'default', 'data')).metadata.name).toBe('pv1');
  });
});
