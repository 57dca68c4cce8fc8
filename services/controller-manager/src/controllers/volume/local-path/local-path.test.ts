import { describe, expect, it } from 'vitest';
import { GVR } from '@kubelab/client';
import type { PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '@kubelab/api';
import { waitFor } from '@kubelab/testing';
import { fakeEnv } from '../../../testing/fakes.js';
import { deleteHelperPod, provision } from './decisions.js';
import { LocalPathProvisioner } from './local-path-provisioner.js';

const standard: StorageClass = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
  provisioner: 'rancher.io/local-path',
  reclaimPolicy: 'Delete',
  volumeBindingMode: 'WaitForFirstConsumer',
};
const claim = (annotations: Record<string, string>): PersistentVolumeClaim => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'default', uid: 'c0ffee', resourceVersion: '7', annotations: { 'volume.kubernetes.io/storage-provisioner': 'rancher.io/local-path', ...annotations } },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '128Mi' } }, storageClassName: 'standard', volumeMode: 'Filesystem' },
  status: { phase: 'Pending' },
});

describe('local-path provisioning decisions', () => {
  it('a directory of the selected node, named after the claim, pinned there', () => {
    const d = provision(claim({ 'volume.kubernetes.io/selected-node': 'node-1' }), standard, () => undefined);
    expect(d.kind).toBe('create');
    const v = (d as { volume: PersistentVolume }).volume;
    expect(v.metadata.name).toBe('pvc-c0ffee');
    expect(v.spec).toMatchObject({
      capacity: { storage: '128Mi' },
      persistentVolumeReclaimPolicy: 'Delete',
      storageClassName: 'standard',
      hostPath: { path: '/var/local-path-provisioner/pvc-c0ffee_default_data', type: 'DirectoryOrCreate' },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-1'] }] }] } },
      claimRef: { namespace: 'default', name: 'data', uid: 'c0ffee' },
    });
  });
  it('no selected node: the provisioner says so', () => {
    expect(provision(claim({}), standard, () => undefined)).toEqual({ kind: 'fail', message: 'failed to provision volume with StorageClass "standard": configuration error, no node was specified' });
  });
  it('the helper pod removes the directory on its node', () => {
    const p = deleteHelperPod({ metadata: { name: 'pvc-c0ffee' }, spec: { hostPath: { path: '/var/local-path-provisioner/pvc-c0ffee_default_data' } } }, 'node-1');
    expect(p.spec?.nodeName).toBe('node-1');
    expect(p.spec?.containers[0]?.command).toEqual(['/bin/sh', '-c', 'rm -rf /data/pvc-c0ffee_default_data']);
    expect(p.spec?.volumes?.[0]?.hostPath?.path).toBe('/var/local-path-provisioner');
  });
});

describe('local-path-provisioner controller', () => {
  it('creates the volume with Provisioning and ProvisioningSucceeded events', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.storageClasses, standard);
    env.fake.seed(GVR.persistentVolumeClaims, claim({ 'volume.kubernetes.io/selected-node': 'node-1' }));
    const c = new LocalPathProvisioner(env.ctx);
    await env.sync();
    await c.processItem('claim/default/data');
    expect(env.fake.actionLines()).toEqual(['create persistentvolumes']);
    expect(env.recorder.events).toEqual([
      'Normal Provisioning External provisioner is provisioning volume for claim "default/data"',
      'Normal ProvisioningSucceeded Successfully provisioned volume pvc-c0ffee',
    ]);
    await env.stop();
  });

  it('a released Delete volume: a helper pod first; once it succeeded, the volume and the pod go', async () => {
    const env = fakeEnv();
    const released: PersistentVolume = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pvc-c0ffee', annotations: { 'pv.kubernetes.io/provisioned-by': 'rancher.io/local-path', 'local.path.provisioner/selected-node': 'node-1' } },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Delete', hostPath: { path: '/var/local-path-provisioner/pvc-c0ffee_default_data' } },
      status: { phase: 'Released' },
    };
    env.fake.seed(GVR.persistentVolumes, released);
    const c = new LocalPathProvisioner(env.ctx);
    await env.sync();
    await c.processItem('volume/pvc-c0ffee');
    expect(env.fake.actionLines()).toEqual(['create pods kube-system']);
    const helper = env.fake.peek<Pod>(GVR.pods, 'kube-system', 'helper-pod-delete-pvc-c0ffee')!;
    helper.status = { phase: 'Succeeded' };
    await env.ctx.clientset.core.pods('kube-system').updateStatus(helper);
    const lister = env.ctx.informers.core.pods().lister();
    await waitFor('the informer to see the helper succeed', () => lister.namespace('kube-system').get('helper-pod-delete-pvc-c0ffee')?.status?.phase === 'Succeeded');
    env.fake.clearActions();
    await c.processItem('volume/pvc-c0ffee');
    expect(env.fake.actionLines()).toEqual(['delete persistentvolumes pvc-c0ffee', 'delete pods kube-system/helper-pod-delete-pvc-c0ffee']);
    await env.stop();
  });
});
