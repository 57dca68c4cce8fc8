import { describe, expect, it } from 'vitest';
import { GVR } from '@kubelab/client';
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '@kubelab/api';
import { waitFor } from '@kubelab/testing';
import { fakeEnv } from '../../../testing/fakes.js';
import { claimAction, volumeAction } from './decisions.js';
import { PersistentVolumeController } from './pv-controller.js';

const pv = (name: string, size: string, o: Partial<NonNullable<PersistentVolume['spec']>> & { phase?: string; annotations?: Record<string, string> } = {}): PersistentVolume => {
  const { phase, annotations, ...spec } = o;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: { capacity: { storage: size }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', hostPath: { path: `/data/${name}` }, ...spec },
    status: { phase: (phase ?? 'Available') as 'Available' },
  };
};
const claim = (size: string, o: { class?: string; volumeName?: string; annotations?: Record<string, string>; uid?: string } = {}): PersistentVolumeClaim => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'default', uid: o.uid ?? 'claim-uid', ...(o.annotations ? { annotations: o.annotations } : {}) },
  spec: {
    accessModes: ['ReadWriteOnce'],
    resources: { requests: { storage: size } },
    ...(o.class !== undefined ? { storageClassName: o.class } : {}),
    ...(o.volumeName ? { volumeName: o.volumeName } : {}),
  },
  status: { phase: 'Pending' },
});
const sc = (name: string, mode: 'Immediate' | 'WaitForFirstConsumer'): StorageClass => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name },
  provisioner: 'rancher.io/local-path',
  reclaimPolicy: 'Delete',
  volumeBindingMode: mode,
});
const classes =
  (...list: StorageClass[]) =>
  (n: string) =>
    list.find((c) => c.metadata.name === n);
const ref = { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data', uid: 'claim-uid' };

describe('claimAction (syncUnboundClaim / syncBoundClaim)', () => {
  it.each<[string, PersistentVolumeClaim, PersistentVolume[], StorageClass[], string]>([
    ['binds the smallest fit', claim('1Gi', { class: '' }), [pv('big', '10Gi'), pv('small', '2Gi')], [], 'bind small'],
    ['no volume, no class', claim('1Gi', { class: '' }), [pv('tiny', '500Mi')], [], 'pending FailedBinding no persistent volumes available for this claim and no storage class is set'],
    [
      'a delayed class waits for a consumer',
      claim('1Gi', { class: 'standard' }),
      [],
      [sc('standard', 'WaitForFirstConsumer')],
      'pending WaitForFirstConsumer waiting for first consumer to be created before binding',
    ],
    [
      'a selected node: the provisioner',
      claim('1Gi', { class: 'standard', annotations: { 'volume.kubernetes.io/selected-node': 'node-1' } }),
      [],
      [sc('standard', 'WaitForFirstConsumer')],
      "provision ExternalProvisioning Waiting for a volume to be created either by the external provisioner 'rancher.io/local-path' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
    ],
    ['an unknown class', claim('1Gi', { class: 'gold' }), [], [], 'pending ProvisioningFailed storageclass.storage.k8s.io "gold" not found'],
    [
      'a volume the scheduler pre-bound',
      claim('1Gi', { class: 'standard' }),
      [pv('local', '1Gi', { storageClassName: 'standard', claimRef: ref })],
      [sc('standard', 'WaitForFirstConsumer')],
      'bind local',
    ],
    [
      'bound, volume gone: Lost',
      claim('1Gi', { volumeName: 'gone', annotations: { 'pv.kubernetes.io/bind-completed': 'yes' } }),
      [],
      [],
      'lost ClaimLost Bound claim has lost its PersistentVolume. Data on the volume is lost!',
    ],
  ])('%s', (_, c, volumes, scs, want) => {
    const a = claimAction(c, volumes, classes(...scs));
    const line = a.kind === 'bind' ? `bind ${a.volume.metadata.name}` : a.kind === 'pending' ? `pending ${a.event?.reason} ${a.event?.message}` : `${a.kind} ${a.event.reason} ${a.event.message}`;
    expect(line).toBe(want);
  });
});

describe('volumeAction (syncVolume)', () => {
  it.each<[string, PersistentVolume, PersistentVolumeClaim | undefined, string]>([
    ['no claimRef: Available', pv('a', '1Gi', { phase: 'Pending' }), undefined, 'phase Available'],
    ['its claim bound to it: Bound', pv('a', '1Gi', { claimRef: ref }), claim('1Gi', { volumeName: 'a' }), 'phase Bound'],
    ['claim gone, Retain: Released and kept', pv('a', '1Gi', { claimRef: ref, phase: 'Bound' }), undefined, 'released retain'],
    ['claim replaced (new uid): Released', pv('a', '1Gi', { claimRef: ref, phase: 'Bound' }), claim('1Gi', { uid: 'other' }), 'released retain'],
    [
      'claim gone, Delete, provisioned: its provisioner deletes',
      pv('a', '1Gi', { claimRef: ref, persistentVolumeReclaimPolicy: 'Delete', annotations: { 'pv.kubernetes.io/provisioned-by': 'rancher.io/local-path' } }),
      undefined,
      'released external-delete',
    ],
    ['claim gone, Delete, manual: Failed', pv('a', '1Gi', { claimRef: ref, persistentVolumeReclaimPolicy: 'Delete' }), undefined, 'released failed'],
    ['claim took another volume: unbind', pv('a', '1Gi', { claimRef: ref, annotations: { 'pv.kubernetes.io/bound-by-controller': 'yes' } }), claim('1Gi', { volumeName: 'b' }), 'unbind'],
  ])('%s', (_, v, c, want) => {
    const a = volumeAction(v, c);
    expect([a.kind, a.kind === 'phase' ? a.phase : a.kind === 'released' ? a.reclaim : undefined].filter(Boolean).join(' ')).toBe(want);
  });
});

describe('persistentvolume-binder controller', () => {
  it('binds a claim to the smallest fitting volume: claimRef, phases, annotations, status', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.persistentVolumes, pv('big', '10Gi'), pv('small', '2Gi'));
    env.fake.seed(GVR.persistentVolumeClaims, { ...claim('1Gi', { class: '' }), metadata: { name: 'data', namespace: 'default' } });
    const c = new PersistentVolumeController(env.ctx);
    await env.sync();
    await c.processItem('claim/default/data');
    expect(env.fake.actionLines()).toEqual([
      'update persistentvolumes small',
      'update persistentvolumes/status small',
      'update persistentvolumeclaims default/data',
      'update persistentvolumeclaims/status default/data',
    ]);
    const bound = env.fake.peek<PersistentVolumeClaim>(GVR.persistentVolumeClaims, 'default', 'data')!;
    expect(bound.spec?.volumeName).toBe('small');
    expect(bound.metadata.annotations).toEqual({ 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect(bound.status).toEqual({ phase: 'Bound', capacity: { storage: '2Gi' }, accessModes: ['ReadWriteOnce'] });
    const vol = env.fake.peek<PersistentVolume>(GVR.persistentVolumes, '', 'small')!;
    expect(vol.spec?.claimRef).toMatchObject({ kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data', uid: bound.metadata.uid });
    expect(vol.status?.phase).toBe('Bound');
    expect(vol.metadata.annotations).toEqual({ 'pv.kubernetes.io/bound-by-controller': 'yes' });
    await env.stop();
  });

  it('a WaitForFirstConsumer claim waits with an event; once a node is selected it asks the provisioner', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.storageClasses, sc('standard', 'WaitForFirstConsumer'));
    env.fake.seed(GVR.persistentVolumeClaims, claim('1Gi', { class: 'standard' }));
    const c = new PersistentVolumeController(env.ctx);
    await env.sync();
    await c.processItem('claim/default/data');
    expect(env.fake.actionLines()).toEqual([]);
    expect(env.recorder.events).toEqual(['Normal WaitForFirstConsumer waiting for first consumer to be created before binding']);

    const selected = env.fake.peek<PersistentVolumeClaim>(GVR.persistentVolumeClaims, 'default', 'data')!;
    selected.metadata.annotations = { 'volume.kubernetes.io/selected-node': 'node-1' };
    await env.ctx.clientset.core.persistentVolumeClaims('default').update(selected);
    await waitForCacheAnnotation(env);
    env.fake.clearActions();
    await c.processItem('claim/default/data');
    expect(env.fake.actionLines()).toEqual(['update persistentvolumeclaims default/data']);
    expect(env.fake.peek<PersistentVolumeClaim>(GVR.persistentVolumeClaims, 'default', 'data')!.metadata.annotations).toMatchObject({
      'volume.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
      'volume.beta.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
    });
    expect(env.recorder.events.at(-1)).toMatch(/^Normal ExternalProvisioning Waiting for a volume to be created either by the external provisioner 'rancher.io\/local-path'/);
    await env.stop();
  });

  it('a volume whose claim is gone is Released (Retain) and stays', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.persistentVolumes, pv('kept', '1Gi', { claimRef: ref, phase: 'Bound' }));
    const c = new PersistentVolumeController(env.ctx);
    await env.sync();
    await c.processItem('volume/kept');
    expect(env.fake.actionLines()).toEqual(['update persistentvolumes/status kept']);
    expect(env.fake.peek<PersistentVolume>(GVR.persistentVolumes, '', 'kept')!.status?.phase).toBe('Released');
    await env.stop();
  });
});

/** Waits until the informer sees the claim's selected-node annotation: the fake's watch delivers asynchronously. */
function waitForCacheAnnotation(env: ReturnType<typeof fakeEnv>): Promise<unknown> {
  const lister = env.ctx.informers.core.persistentVolumeClaims().lister();
  return waitFor('the informer to see the selected node', () => lister.namespace('default').get('data')?.metadata.annotations?.['volume.kubernetes.io/selected-node']);
}
