// persistentVolumeClaim volumes end to end on one node (real apiserver, mock
// containerd over CRI, kubelet): a pod waits in ContainerCreating while its
// claim is unbound (FailedMount with the populator's text), mounts the bound
// volume's directory once the claim is bound, and what one pod writes there
// the next pod on the claim reads.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PersistentVolumeClaim } from '@kubelab/api';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL, pod, podEvents, startCluster, type Cluster } from './harness.js';

/** The container's log once it has one (the kubelet answers an error while the container waits). */
const logs = async (c: Cluster, name: string) => {
  const r = await c.kubeletGet(`/containerLogs/default/${name}/app`);
  return r.status === 200 && r.text ? r.text : undefined;
};

describe.skipIf(!requireTool('nats-server'))('kubelet persistentVolumeClaim volumes', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await startCluster();
  }, 30_000);
  afterAll(async () => {
    await c?.dispose();
  });

  const withClaim = (name: string, script: string) =>
    pod(name, {
      containers: [{ name: 'app', image: 'busybox:1.37', command: ['sh', '-c', script], volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
      terminationGracePeriodSeconds: 1,
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
    });

  it('an unbound claim holds the pod; once bound, data written by one pod is read by the next', async () => {
    const dir = join(c.dir, 'volumes', 'data');
    const claim = await c.cs.core.persistentVolumeClaims('default').create({
      metadata: { name: 'data' },
      spec: { storageClassName: '', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    await c.cs.core.pods('default').create(withClaim('writer', 'echo kept > /data/msg; sleep 3600'));
    await waitFor('FailedMount for the unbound claim', async () => (await podEvents(c.cs, 'writer')).some((e) => e.includes('PVC is not bound')), POLL);
    expect((await podEvents(c.cs, 'writer')).find((e) => e.includes('FailedMount'))).toContain('MountVolume.SetUp failed for volume "data" : error processing PVC default/data: PVC is not bound');

    // The PV controller's binding, written by hand: both sides, then both statuses.
    await c.cs.core.persistentVolumes().create({
      metadata: { name: 'pv-data' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        hostPath: { path: dir, type: 'DirectoryOrCreate' },
        claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data', uid: claim.metadata.uid! },
      },
    });
    const named: PersistentVolumeClaim = await c.cs.core.persistentVolumeClaims('default').update({ ...claim, spec: { ...claim.spec, volumeName: 'pv-data' } });
    await c.cs.core.persistentVolumeClaims('default').updateStatus({ ...named, status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] } });

    await waitFor('the writer running', async () => (await c.cs.core.pods('default').get('writer')).status?.phase === 'Running', { ...POLL, timeoutMs: 20_000 });
    await waitFor('the message on the node', () => existsSync(join(dir, 'msg')), POLL);
    expect(readFileSync(join(dir, 'msg'), 'utf8')).toBe('kept\n');

    await c.cs.core.pods('default').delete('writer');
    await c.cs.core.pods('default').create(withClaim('reader', 'cat /data/msg; sleep 3600'));
    const out = await waitFor("the reader's log", () => logs(c, 'reader'), { ...POLL, timeoutMs: 20_000 });
    expect(out).toBe('kept\n');
  }, 60_000);
});
