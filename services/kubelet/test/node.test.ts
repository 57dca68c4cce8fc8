// Node-level behaviour: pod CIDR handed to the runtime, static pods with
// mirror pods, kubelet restart adopting running containers, orphans removed,
// and the runtime going away turning the node NotReady.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Node, Pod } from '@kubelab/api';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL, pod, startCluster, type Cluster } from './harness.js';

const ready = async (c: Cluster) => ((await c.cs.core.nodes().get('node-1')) as Node).status?.conditions?.find((x) => x.type === 'Ready');

describe.skipIf(!requireTool('nats-server'))('kubelet and its node', () => {
  let c: Cluster;
  let manifests: string;
  beforeAll(async () => {
    c = await startCluster({ containerd: { timeScale: 10, podCidr: '' }, kubelet: { timeScale: 10 } });
    manifests = join(c.dir, 'manifests');
    mkdirSync(manifests);
    // Restart with the manifest directory set (as kubeadm's --pod-manifest-path).
    await c.stopKubelet();
    await c.startKubelet({ podManifestPath: manifests, fileCheckFrequencyMs: 1000 });
  }, 30_000);
  afterAll(async () => {
    await c?.dispose();
  });

  it('is NotReady until the node has a pod CIDR, then passes it to the runtime and turns Ready', async () => {
    const before = await waitFor('the Ready condition of node-1', () => ready(c), POLL);
    expect(before).toMatchObject({
      status: 'False',
      reason: 'KubeletNotReady',
      message: 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
    });
    // What the controller-manager's node IPAM does.
    await c.cs.core.nodes().patch('node-1', 'merge', { spec: { podCIDR: '10.244.7.0/24', podCIDRs: ['10.244.7.0/24'] } });
    const after = await waitFor(
      'node-1 Ready',
      async () => {
        const r = await ready(c);
        return r?.status === 'True' ? r : undefined;
      },
      { ...POLL, timeoutMs: 10_000 },
    );
    expect(after).toMatchObject({ reason: 'KubeletReady', message: 'kubelet is posting ready status' });
    await c.cs.core.pods('default').create(pod('ipcheck', { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '600'] }] }));
    const p = await waitFor(
      'a pod IP for ipcheck',
      async () => {
        const x = await c.cs.core.pods('default').get('ipcheck');
        return x.status?.podIP ? x : undefined;
      },
      POLL,
    );
    expect(p.status?.podIP).toMatch(/^10\.244\.7\./);
    expect(p.status?.podIPs).toEqual([{ ip: p.status?.podIP }]);
  }, 30_000);

  it('runs a static pod from the manifest directory and mirrors it in the API; deleting the file stops it', async () => {
    writeFileSync(
      join(manifests, 'static-web.yaml'),
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: static-web\n  labels:\n    role: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n    ports:\n    - containerPort: 80\n',
    );
    const mirror = await waitFor(
      'the static-web mirror pod Running',
      async () => {
        const x = (await c.cs.core.pods('default').get('static-web-node-1')) as Pod;
        return x.status?.phase === 'Running' ? x : undefined;
      },
      { ...POLL, timeoutMs: 10_000 },
    );
    expect(mirror.metadata.annotations).toMatchObject({ 'kubernetes.io/config.source': 'file' });
    expect(mirror.metadata.annotations?.['kubernetes.io/config.mirror']).toBe(mirror.metadata.annotations?.['kubernetes.io/config.hash']);
    expect(mirror.metadata.ownerReferences?.[0]).toMatchObject({ apiVersion: 'v1', kind: 'Node', name: 'node-1', controller: true });
    expect(mirror.spec?.nodeName).toBe('node-1');
    expect(mirror.status?.containerStatuses?.[0]).toMatchObject({ name: 'web', ready: true });

    // Deleting the mirror does not stop the static pod: it comes back.
    await c.cs.core.pods('default').delete('static-web-node-1', { gracePeriodSeconds: 0 });
    const again = await waitFor(
      'a new static-web mirror pod',
      async () => {
        const x = (await c.cs.core.pods('default').get('static-web-node-1')) as Pod;
        return x.metadata.uid !== mirror.metadata.uid ? x : undefined;
      },
      { ...POLL, timeoutMs: 10_000 },
    );
    expect(again.metadata.annotations?.['kubernetes.io/config.mirror']).toBeDefined();

    const staticUid = mirror.metadata.annotations!['kubernetes.io/config.hash']!;
    rmSync(join(manifests, 'static-web.yaml'));
    await waitFor(
      'the static-web mirror pod gone',
      async () => {
        try {
          await c.cs.core.pods('default').get('static-web-node-1');
          return false;
        } catch (e) {
          return (e as { reason?: string }).reason === 'NotFound';
        }
      },
      { ...POLL, timeoutMs: 10_000 },
    );
    await waitFor('the static-web containers removed', async () => (await c.kubelet.kubelet.rt.listContainers({ labelSelector: { 'io.kubernetes.pod.uid': staticUid } })).length === 0, {
      ...POLL,
      timeoutMs: 10_000,
    });
  }, 40_000);

  it('after a kubelet restart adopts running containers (no restart, same restartCount) and removes containers of pods no longer bound', async () => {
    await c.cs.core.pods('default').create(pod('survivor', { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '600'] }] }));
    await c.cs.core.pods('default').create(pod('goner', { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '600'] }] }));
    const before = await waitFor(
      'survivor ready',
      async () => {
        const x = await c.cs.core.pods('default').get('survivor');
        return x.status?.containerStatuses?.[0]?.ready ? x : undefined;
      },
      POLL,
    );
    const goner = await waitFor(
      'goner ready',
      async () => {
        const x = await c.cs.core.pods('default').get('goner');
        return x.status?.containerStatuses?.[0]?.ready ? x : undefined;
      },
      POLL,
    );
    await c.stopKubelet();
    // While the kubelet is down, goner is removed from the API (force delete).
    await c.cs.core.pods('default').delete('goner', { gracePeriodSeconds: 0 });
    await c.startKubelet({ podManifestPath: manifests, fileCheckFrequencyMs: 1000 });
    await waitFor("goner's containers removed", async () => (await c.kubelet.kubelet.rt.listContainers({ labelSelector: { 'io.kubernetes.pod.uid': goner.metadata.uid! } })).length === 0, {
      ...POLL,
      timeoutMs: 10_000,
    });
    // Give the new kubelet a few sync rounds.
    await new Promise((r) => setTimeout(r, 1500));
    const after = await c.cs.core.pods('default').get('survivor');
    const b = before.status!.containerStatuses![0]!;
    const a = after.status!.containerStatuses![0]!;
    expect(a.containerID).toBe(b.containerID);
    expect(a.restartCount).toBe(b.restartCount);
    expect(a.state?.running?.startedAt).toBe(b.state?.running?.startedAt);
    expect(a.ready).toBe(true);
  }, 40_000);

  it('turns the node Ready=False with the upstream message when the runtime goes away', async () => {
    await c.stopContainerd();
    const r = await waitFor(
      'node-1 not Ready',
      async () => {
        const x = await ready(c);
        return x?.status === 'False' ? x : undefined;
      },
      { ...POLL, timeoutMs: 15_000 },
    );
    expect(r).toMatchObject({ reason: 'KubeletNotReady', message: 'container runtime is down' });
  }, 30_000);
});
