// kubectl 1.32 against persistent storage: api-resources (pv, pvc, sc),
// `kubectl get sc` with the default class marked, the DefaultStorageClass
// and StorageObjectInUseProtection admission on create, `kubectl get pvc`
// and `get pv` rows before and after a binding (written here as the PV
// controller writes it), and upstream's validation errors.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject, PersistentVolume, PersistentVolumeClaim } from '@kubelab/api';
import { requireTool } from '@kubelab/testing';
import { squash, startCluster, type Cluster } from './harness.js';

const run = requireTool('kubectl');

const CLASSES = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
  annotations:
    storageclass.kubernetes.io/is-default-class: "true"
provisioner: rancher.io/local-path
reclaimPolicy: Delete
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
provisioner: example.com/fast
allowVolumeExpansion: true
`;

const CLAIM = `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
`;

const VOLUME = `apiVersion: v1
kind: PersistentVolume
metadata:
  name: manual
spec:
  capacity:
    storage: 2Gi
  accessModes: [ReadWriteOnce, ReadOnlyMany]
  hostPath:
    path: /mnt/manual
`;

describe.skipIf(!run)('kubectl 1.32: persistent volumes, claims and storage classes', { timeout: 60_000 }, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster();
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('api-resources lists pv, pvc and sc', async () => {
    const core = squash((await c.kubectl(['api-resources', '--api-group='])).stdout).filter((l) => l.startsWith('persistentvolume'));
    expect(core).toEqual(['persistentvolumeclaims pvc v1 true PersistentVolumeClaim', 'persistentvolumes pv v1 false PersistentVolume']);
    expect(squash((await c.kubectl(['api-resources', '--api-group=storage.k8s.io'])).stdout)).toEqual([
      'NAME SHORTNAMES APIVERSION NAMESPACED KIND',
      'storageclasses sc storage.k8s.io/v1 false StorageClass',
    ]);
  });

  it('get sc marks the default class; a claim without a class gets it, and the protection finalizer', async () => {
    expect((await c.kubectl(['create', '-f', '-'], { stdin: CLASSES })).stdout).toBe('storageclass.storage.k8s.io/standard created\nstorageclass.storage.k8s.io/fast created\n');
    expect(squash((await c.kubectl(['get', 'sc'])).stdout)).toEqual([
      'NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION AGE',
      expect.stringMatching(/^fast example\.com\/fast Delete Immediate true \d+s$/),
      expect.stringMatching(/^standard \(default\) rancher\.io\/local-path Delete WaitForFirstConsumer false \d+s$/),
    ]);

    expect((await c.kubectl(['create', '-f', '-'], { stdin: CLAIM })).stdout).toBe('persistentvolumeclaim/data created\n');
    const pvc = (await c.get('persistentvolumeclaims', 'default', 'data')) as PersistentVolumeClaim;
    expect(pvc.spec).toMatchObject({ storageClassName: 'standard', volumeMode: 'Filesystem' });
    expect(pvc.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    expect(pvc.status).toEqual({ phase: 'Pending' });
    expect(squash((await c.kubectl(['get', 'pvc'])).stdout)).toEqual([
      'NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS AGE',
      expect.stringMatching(/^data Pending standard <unset> \d+s$/),
    ]);
  });

  it('get pv and pvc once bound: claim, capacity and access modes', async () => {
    expect((await c.kubectl(['create', '-f', '-'], { stdin: VOLUME })).stdout).toBe('persistentvolume/manual created\n');
    const fresh = structuredClone((await c.get('persistentvolumes', undefined, 'manual')) as PersistentVolume);
    expect(fresh.spec?.persistentVolumeReclaimPolicy).toBe('Retain');
    expect(fresh.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
    expect(squash((await c.kubectl(['get', 'pv'])).stdout)).toEqual([
      'NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM STORAGECLASS VOLUMEATTRIBUTESCLASS REASON AGE',
      expect.stringMatching(/^manual 2Gi RWO,ROX Retain Pending <unset> \d+s$/),
    ]);

    // What the PV controller writes to bind the two (controller-manager's persistentvolume-binder).
    // The watch cache's objects are frozen: written from copies.
    const pvc = structuredClone((await c.get('persistentvolumeclaims', 'default', 'data')) as PersistentVolumeClaim);
    const volumes = c.api.registry.store('', 'v1', 'persistentvolumes')!;
    const claims = c.api.registry.store('', 'v1', 'persistentvolumeclaims')!;
    const bound = structuredClone(
      await volumes.update(
        undefined,
        'manual',
        { ...fresh, spec: { ...fresh.spec, claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data', uid: pvc.metadata.uid! } } } as KubeObject,
        {},
      ),
    );
    await volumes.update(undefined, 'manual', { ...bound, status: { phase: 'Bound' } } as KubeObject, {}, 'status');
    const named = structuredClone(await claims.update('default', 'data', { ...pvc, spec: { ...pvc.spec, volumeName: 'manual' } } as KubeObject, {}));
    await claims.update('default', 'data', { ...named, status: { phase: 'Bound', capacity: { storage: '2Gi' }, accessModes: ['ReadWriteOnce', 'ReadOnlyMany'] } } as KubeObject, {}, 'status');

    expect(squash((await c.kubectl(['get', 'pvc', '-o', 'wide'])).stdout)).toEqual([
      'NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS AGE VOLUMEMODE',
      expect.stringMatching(/^data Bound manual 2Gi RWO,ROX standard <unset> \d+s Filesystem$/),
    ]);
    expect(squash((await c.kubectl(['get', 'pv'])).stdout)[1]).toMatch(/^manual 2Gi RWO,ROX Retain Bound default\/data <unset> \d+s$/);
    const v = (await c.get('persistentvolumes', undefined, 'manual')) as PersistentVolume;
    expect(v.status?.lastPhaseTransitionTime).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("bad input gets upstream's errors", async () => {
    const bad = await c.kubectl(['create', '-f', '-'], { stdin: 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: bad\nspec:\n  resources: {}\n' });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toBe('The PersistentVolumeClaim "bad" is invalid: \n* spec.accessModes: Required value: at least 1 access mode is required\n* spec.resources[storage]: Required value\n');
    const immutable = await c.kubectl(['patch', 'pvc', 'data', '--type=merge', '-p', '{"spec":{"accessModes":["ReadWriteMany"]}}']);
    expect(immutable.stderr).toBe('The PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests for bound claims\n');
    const provisioner = await c.kubectl(['patch', 'sc', 'fast', '--type=merge', '-p', '{"provisioner":"example.com/other"}']);
    expect(provisioner.stderr).toBe('The StorageClass "fast" is invalid: provisioner: Forbidden: updates to provisioner are forbidden.\n');
    const local = await c.kubectl(['create', '-f', '-'], { stdin: VOLUME.replace('manual', 'nowhere').replace('hostPath:', 'local:') });
    expect(local.stderr).toBe('The PersistentVolume "nowhere" is invalid: spec.nodeAffinity: Required value: Local volume requires node affinity\n');
  });
});
