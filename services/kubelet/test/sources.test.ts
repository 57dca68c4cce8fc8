// Source readiness and status reconcile, as upstream: after a restart the
// kubelet kills nothing as "unwanted" until every pod source has delivered
// its first full set (the apiserver informer synced, the manifest directory
// read), so running containers of pods still bound to it are adopted, never
// restarted — however late the informer syncs. And the status manager puts
// back a status someone else overwrote (MarkPodsNotReady) within its
// reconcile period.

import { join } from 'node:path';
import type { Pod } from '@kubelab/api';
import { SharedInformerFactory, createClientset, newEventBroadcaster } from '@kubelab/client';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kubelet, type KubeletConfig } from '../src/kubelet.js';
import { connectRemoteRuntime } from '../src/kuberuntime/remote.js';
import { POLL, pod, quiet, startCluster, type Cluster } from './harness.js';

const podsApi = (c: Cluster) => c.cs.core.pods('default');
const readyOf = (p: Pod) => p.status?.conditions?.find((x) => x.type === 'Ready')?.status;

describe.skipIf(!requireTool('nats-server'))('pod sources and status reconcile', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await startCluster({ kubelet: { statusSyncPeriodMs: 1000 } });
  }, 30_000);
  afterAll(async () => {
    await c?.dispose();
  });

  it('a restarted kubelet whose pod informer syncs late kills nothing, then adopts the running container', async () => {
    await podsApi(c).create(pod('keeper', { containers: [{ name: 'main', image: 'busybox:1.37', command: ['sleep', '100000'] }] }));
    const before = await waitFor(
      'keeper ready',
      async () => {
        const x = await podsApi(c).get('keeper');
        return x.status?.containerStatuses?.[0]?.ready ? x : undefined;
      },
      POLL,
    );
    const uid = before.metadata.uid!;
    const b = before.status!.containerStatuses![0]!;
    await c.stopKubelet();

    // A kubelet (as startKubelet wires it) whose apiserver pod source is held back.
    const cs = createClientset({ address: `127.0.0.1:${c.apiserver.grpcPort}`, component: 'kubelet', tls: c.kubeletTls });
    const informers = new SharedInformerFactory(cs);
    const podInformer = informers.core.pods({ fieldSelector: `spec.nodeName=${c.nodeName}` });
    const runInformer = podInformer.run.bind(podInformer);
    let releaseApiSource!: () => void;
    const apiSourceGate = new Promise<void>((r) => (releaseApiSource = r));
    podInformer.run = () => void apiSourceGate.then(runInformer);
    const broadcaster = newEventBroadcaster(cs);
    const rt = connectRemoteRuntime(`unix://${c.containerd.socketPath}`);
    const config: KubeletConfig = {
      nodeName: c.nodeName,
      nodeIP: '127.0.0.1',
      nodeLabels: {},
      podManifestPath: '',
      podLogsDir: join(c.dir, 'pods'),
      rootDir: join(c.dir, 'kubelet'),
      kubeletPort: 10250,
      maxPods: 110,
      nodeStatusUpdateFrequencyMs: 500,
      nodeStatusReportFrequencyMs: 300_000,
      nodeLeaseDurationSeconds: 40,
      fileCheckFrequencyMs: 20_000,
      syncFrequencyMs: 60_000,
      timeScale: 1,
      registerNode: true,
      featureGates: {},
    };
    const k = new Kubelet({ config, clientset: cs, informers, runtime: rt, broadcaster, log: quiet('kubelet') });
    try {
      await k.start();
      // The first relist found keeper's containers: their pod workers ran, and housekeeping runs
      // while the API source has not synced. Step them instead of waiting for timers.
      await k.pleg.relist();
      await k.housekeeping();
      for (const u of k.podWorkers.known()) k.podWorkers.update(u);
      await k.syncPod(uid);
      await k.podWorkers.whenIdle();
      expect(k.sourcesReady()).toBe(false);
      expect(k.podWorkers.known()).toContain(uid);
      const held = await rt.listContainers({ labelSelector: { 'io.kubernetes.pod.uid': uid } });
      expect(held.map((x) => [`containerd://${x.id}`, x.state])).toEqual([[b.containerID, 'CONTAINER_RUNNING']]);

      releaseApiSource();
      await waitFor('the kubelet sources ready', () => k.sourcesReady(), POLL);
      await k.housekeeping();
      await k.podWorkers.whenIdle();
      await k.statusManager.whenIdle();
      const after = await waitFor(
        'keeper ready after the restart',
        async () => {
          const x = await podsApi(c).get('keeper');
          return x.status?.containerStatuses?.[0]?.ready ? x : undefined;
        },
        POLL,
      );
      expect(after.status!.containerStatuses![0]).toMatchObject({ containerID: b.containerID, restartCount: b.restartCount, state: { running: { startedAt: b.state!.running!.startedAt } } });
      const adopted = await rt.listContainers({ labelSelector: { 'io.kubernetes.pod.uid': uid } });
      expect(adopted.map((x) => [`containerd://${x.id}`, x.state])).toEqual([[b.containerID, 'CONTAINER_RUNNING']]);
    } finally {
      await k.stop();
      await k.statusManager.whenIdle();
      await informers.shutdown();
      await broadcaster.shutdown();
      rt.close();
      cs.close();
    }
    await c.startKubelet({ statusSyncPeriodMs: 1000 });
  }, 40_000);

  it('puts Ready=True back within the reconcile period after the node controller set Ready=False', async () => {
    const p = await waitFor(
      'keeper Ready',
      async () => {
        const x = await podsApi(c).get('keeper');
        return readyOf(x) === 'True' ? x : undefined;
      },
      POLL,
    );
    // The (restarted) kubelet has reported the pod and has nothing left to write or reconcile.
    const k = c.kubelet.kubelet;
    await waitFor("keeper Ready in the kubelet's status manager", () => k.statusManager.getPodStatus(p.metadata.uid!)?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True'), POLL);
    await k.podWorkers.whenIdle();
    await k.statusManager.whenIdle();
    await waitFor('keeper Ready in the API and no status left to write', async () => readyOf(await podsApi(c).get('keeper')) === 'True' && k.statusManager.syncBatch().length === 0, POLL);
    await k.statusManager.whenIdle();
    const writesBefore = k.statusManager.posts;
    // What MarkPodsNotReady writes through pods/status while the node is not ready.
    const conditions = p.status!.conditions!.map((x) => (x.type === 'Ready' ? { ...x, status: 'False' as const, lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') } : x));
    await podsApi(c).updateStatus({ ...p, status: { ...p.status, conditions } });
    const marked = Date.now();
    expect(readyOf(await podsApi(c).get('keeper'))).toBe('False');
    const back = await waitFor(
      'keeper Ready again',
      async () => {
        const x = await podsApi(c).get('keeper');
        return readyOf(x) === 'True' ? x : undefined;
      },
      { ...POLL, timeoutMs: 5_000 },
    );
    // One reconcile period (1 s here, 10 s by default) plus the informer's delivery and the write.
    expect(Date.now() - marked).toBeLessThan(2_500);
    // A GET can see the write before the kubelet has its answer (and counts the post).
    await waitFor('a status write', () => k.statusManager.posts > writesBefore, POLL);
    expect(k.statusManager.posts).toBe(writesBefore + 1);
    expect(back.status!.containerStatuses![0]).toMatchObject({ containerID: p.status!.containerStatuses![0]!.containerID, restartCount: 0, ready: true });
  }, 20_000);
});
