// The kube-api-access volume end to end in the kubelet (fake clientset and
// runtime): the token the kubelet requests bound to the pod lands in the
// container's /var/run/secrets/kubernetes.io/serviceaccount mount beside the
// CA and the namespace, and is replaced once 80 % of its lifetime has passed.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigMap, Pod, TokenRequest } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { afterEach, describe, expect, it } from 'vitest';
import { newTestKubelet } from '../testing/test-kubelet.js';

const MOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';
const CA = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';
const rootCA: ConfigMap = { metadata: { name: 'kube-root-ca.crt', namespace: 'team' }, data: { 'ca.crt': CA } };

// What the ServiceAccount admission plugin adds to every pod.
const pod: Pod = {
  metadata: { name: 'web', namespace: 'team' },
  spec: {
    serviceAccountName: 'robot',
    containers: [{ name: 'app', image: 'busybox:1.36', volumeMounts: [{ name: 'kube-api-access-x7k2q', readOnly: true, mountPath: MOUNT }] }],
    volumes: [
      {
        name: 'kube-api-access-x7k2q',
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
          ],
        },
      },
    ],
  },
};

describe('projected service account token', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('mounts a token bound to the pod, with ca.crt and namespace, and refreshes it after 80 % of its lifetime', async () => {
    root = mkdtempSync(join(tmpdir(), 'kubelab-token-'));
    const t = newTestKubelet({ config: { rootDir: root } });
    t.runtime.addImage('busybox:1.36');
    t.api.seed(GVR.serviceAccounts, { metadata: { name: 'robot', namespace: 'team' } });
    t.api.seed(GVR.configMaps, rootCA);
    const asked: TokenRequest[] = [];
    t.api.prependReactor('create', 'serviceaccounts', (a) => {
      if (a.subresource !== 'token') return undefined;
      const req = a.object as unknown as TokenRequest;
      asked.push(req);
      return { ...req, status: { token: `jwt-${asked.length}`, expirationTimestamp: new Date(t.clock.now() + 3607_000).toISOString() } };
    });
    const uid = t.addApiPod(pod).metadata.uid!;
    await t.kubelet.syncPod(uid);

    const [id] = [...t.runtime.containers.keys()];
    const mount = t.runtime.mounts.get(id!)!.find((m) => m.containerPath === MOUNT)!;
    expect(mount).toMatchObject({ readonly: true, hostPath: join(root, 'pods', uid, 'volumes', 'kubernetes.io~projected', 'kube-api-access-x7k2q') });
    const read = (f: string) => readFileSync(join(mount.hostPath, f), 'utf8');
    expect({ token: read('token'), ca: read('ca.crt'), namespace: read('namespace') }).toEqual({ token: 'jwt-1', ca: CA, namespace: 'team' });
    expect(asked).toEqual([{ metadata: {}, spec: { audiences: [], expirationSeconds: 3607, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid } } }]);
    expect(t.api.actionLines()).toContain('create serviceaccounts/token team/robot');

    // A periodic sync before 80 % of 3607 s keeps the token; after it, the file holds a new one.
    await t.clock.advance(2_800_000);
    await t.kubelet.syncPod(uid);
    expect(read('token')).toBe('jwt-1');
    await t.clock.advance(100_000);
    await t.kubelet.syncPod(uid);
    expect(read('token')).toBe('jwt-2');
  });

  it('reports FailedMount with the token manager text when the service account does not exist', async () => {
    root = mkdtempSync(join(tmpdir(), 'kubelab-token-'));
    const t = newTestKubelet({ config: { rootDir: root } });
    t.runtime.addImage('busybox:1.36');
    t.api.seed(GVR.configMaps, rootCA);
    const uid = t.addApiPod(pod).metadata.uid!;
    await t.kubelet.syncPod(uid);
    expect(t.runtime.containers.size).toBe(0);
    expect(t.recorder.events).toContain('Warning FailedMount MountVolume.SetUp failed for volume "kube-api-access-x7k2q" : failed to fetch token: serviceaccounts "robot" not found');
  });
});
