import { describe, expect, it } from 'vitest';
import { GVR } from '@kubelab/client';
import type { PersistentVolume, PersistentVolumeClaim, Pod } from '@kubelab/api';
import { fakeEnv } from '../../../testing/fakes.js';
import { claimFinalizerAction, volumeFinalizerAction } from './decisions.js';
import { PvcProtectionController } from './pvc-protection-controller.js';

const F = 'kubernetes.io/pvc-protection';
const claim = (deleting: boolean, finalizers = [F]): PersistentVolumeClaim => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'default', finalizers, ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec: {},
});
const pod = (phase: 'Running' | 'Succeeded', claimName = 'data'): Pod => ({
  metadata: { name: 'p', namespace: 'default' },
  spec: { containers: [], volumes: [{ name: 'v', persistentVolumeClaim: { claimName } }] },
  status: { phase },
});

describe('storage protection decisions', () => {
  it.each<[string, PersistentVolumeClaim, Pod[], string]>([
    ['a live claim without the finalizer gets it', claim(false, []), [], 'add'],
    ['a deleted claim a running pod uses stays', claim(true), [pod('Running')], 'none'],
    ['a deleted claim only a finished pod used goes', claim(true), [pod('Succeeded')], 'remove'],
    ['another claim in use does not hold it', claim(true), [pod('Running', 'other')], 'remove'],
  ])('%s', (_, c, pods, want) => {
    expect(claimFinalizerAction(c, F, pods)).toBe(want);
  });
  it('a deleted volume stays while Bound', () => {
    const v = (phase: 'Bound' | 'Released'): PersistentVolume => ({ metadata: { name: 'v', finalizers: ['kubernetes.io/pv-protection'], deletionTimestamp: 'x' }, status: { phase } });
    expect(volumeFinalizerAction(v('Bound'), 'kubernetes.io/pv-protection')).toBe('none');
    expect(volumeFinalizerAction(v('Released'), 'kubernetes.io/pv-protection')).toBe('remove');
  });
});

describe('pvc-protection controller', () => {
  it('removes the finalizer of a deleted claim no pod uses', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.persistentVolumeClaims, claim(true));
    const c = new PvcProtectionController(env.ctx);
    await env.sync();
    await c.processItem('default/data');
    expect(env.fake.actionLines()).toEqual(['update persistentvolumeclaims default/data']);
    expect(env.fake.peek<PersistentVolumeClaim>(GVR.persistentVolumeClaims, 'default', 'data')!.metadata.finalizers).toEqual([]);
    await env.stop();
  });
});
