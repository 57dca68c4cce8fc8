import type { Lease, Node } from '@kubelab/api';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL, pod, podEvents, startCluster, type Cluster } from './harness.js';

describe.skipIf(!requireTool('nats-server'))('kubelet on one node', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await startCluster();
  }, 30_000);
  afterAll(async () => {
    await c?.dispose();
  });

  it('registers its Node with labels, capacity, addresses, nodeInfo and a Ready condition', async () => {
    const node = await waitFor(
      'node-1 Ready',
      async () => {
        const n = (await c.cs.core.nodes().get('node-1')) as Node;
        return n.status?.conditions?.find((x) => x.type === 'Ready')?.status === 'True' ? n : undefined;
      },
      POLL,
    );
    expect(node.metadata.labels).toMatchObject({ 'kubernetes.io/hostname': 'node-1', 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' });
    expect(node.status?.capacity?.pods).toBe('110');
    expect(node.status?.allocatable?.pods).toBe('110');
    expect(Object.keys(node.status?.capacity ?? {})).toEqual(expect.arrayContaining(['cpu', 'memory', 'ephemeral-storage', 'pods']));
    expect(node.status?.addresses).toEqual([
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: 'node-1' },
    ]);
    expect(node.status?.nodeInfo?.containerRuntimeVersion).toMatch(/^containerd:\/\/v?\d/);
    expect(node.status?.nodeInfo?.kubeletVersion).toBe('v1.32.0');
    expect(node.status?.daemonEndpoints?.kubeletEndpoint?.Port).toBe(c.kubelet.port);
    const ready = node.status?.conditions?.find((x) => x.type === 'Ready');
    expect(ready).toMatchObject({ reason: 'KubeletReady', message: 'kubelet is posting ready status' });
  });

  it('holds a Lease in kube-node-lease owned by its Node', async () => {
    const lease = (await waitFor('the node-1 lease', () => c.cs.coordination.leases('kube-node-lease').get('node-1'), POLL)) as Lease;
    expect(lease.spec).toMatchObject({ holderIdentity: 'node-1', leaseDurationSeconds: 40 });
    expect(lease.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: 'node-1' });
  });

  it('runs a pod over CRI and reports status and events as upstream', async () => {
    await c.cs.core.pods('default').create(pod('web', { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'echo hello from app; sleep 3600'] }] }));
    const p = await waitFor(
      'web Running and ready',
      async () => {
        const x = await c.cs.core.pods('default').get('web');
        return x.status?.phase === 'Running' && x.status.containerStatuses?.[0]?.ready ? x : undefined;
      },
      POLL,
    );
    const cs = p.status!.containerStatuses![0]!;
    expect(cs).toMatchObject({ name: 'app', ready: true, started: true, restartCount: 0, lastState: {} });
    expect(cs.containerID).toMatch(/^containerd:\/\/\w+/);
    expect(cs.state?.running?.startedAt).toMatch(/Z$/);
    expect(p.status?.podIP).toMatch(/^10\.|^\d+\./);
    expect(p.status?.hostIP).toBe('127.0.0.1');
    expect(p.status?.conditions?.map((x) => `${x.type}=${x.status}`)).toEqual(['PodReadyToStartContainers=True', 'Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True']);
    const events = await waitFor(
      'a Started event for web',
      async () => {
        const e = await podEvents(c.cs, 'web');
        return e.some((x) => x.startsWith('Started')) ? e : undefined;
      },
      POLL,
    );
    expect(events).toEqual([
      'Pulling: Pulling image "busybox:1.36"',
      expect.stringMatching(/^Pulled: Successfully pulled image "busybox:1.36" in \S+ \(\S+ including waiting\)\. Image size: 2150000 bytes\.$/),
      'Created: Created container: app',
      'Started: Started container app',
    ]);
    // Logs through the kubelet server, as the apiserver proxies `kubectl logs`.
    const logs = await waitFor(
      "'hello' in web's log",
      async () => {
        const t = (await c.kubeletGet('/containerLogs/default/web/app')).text;
        return t.includes('hello') ? t : undefined;
      },
      POLL,
    );
    expect(logs).toBe('hello from app\n');
    const podsList = JSON.parse((await c.kubeletGet('/pods')).text) as { kind: string; items: { metadata: { name: string } }[] };
    expect(podsList.kind).toBe('PodList');
    expect(podsList.items.map((x) => x.metadata.name)).toContain('web');
  }, 20_000);

  it('serves upstream kubelet metrics at :10250/metrics after running a pod', async () => {
    // Runs after the 'web' pod test: one running sandbox and container, one pod start observed.
    const metrics = async () => (await c.kubeletGet('/metrics')).text;
    const text = await waitFor(
      'kubelet_running_pods 1',
      async () => {
        const t = await metrics();
        return /^kubelet_running_pods 1$/m.test(t) ? t : undefined;
      },
      POLL,
    );
    expect(text).toMatch(/^kubelet_running_containers\{container_state="running"\} 1$/m);
    expect(text).toMatch(/^kubelet_running_containers\{container_state="exited"\} 0$/m);
    expect(text).toMatch(/^kubelet_pod_start_duration_seconds_count 1$/m);
    expect(text).toMatch(/^# HELP kubelet_pod_start_duration_seconds Duration in seconds from kubelet seeing a pod for the first time to the pod starting to run$/m);
    for (const op of ['run_podsandbox', 'create_container', 'start_container', 'pull_image', 'list_podsandbox', 'list_containers']) {
      expect(text).toMatch(new RegExp(`^kubelet_runtime_operations_total\\{operation_type="${op}"\\} [1-9]\\d*$`, 'm'));
      expect(text).toMatch(new RegExp(`^kubelet_runtime_operations_duration_seconds_count\\{operation_type="${op}"\\} [1-9]\\d*$`, 'm'));
    }
    expect(text).toMatch(/^# TYPE kubelet_runtime_operations_errors_total counter$/m);
  });

  it('creates its Node with capacity, allocatable and conditions already set, as upstream initialNode does (registering again)', async () => {
    await c.stopKubelet();
    await c.cs.core.nodes().delete('node-1');
    const list = await c.cs.core.nodes().list();
    const firstSeen: Node[] = [];
    const stream = c.cs.core.nodes().watch({ resourceVersion: list.metadata.resourceVersion ?? '' });
    const watching = (async () => {
      for await (const ev of stream) if (ev.type === 'ADDED' && ev.object.metadata.name === 'node-1') firstSeen.push(ev.object as Node);
    })();
    try {
      await c.startKubelet();
      await waitFor('node-1 created again', () => firstSeen.length > 0 || undefined, POLL);
    } finally {
      stream.stop();
      await watching;
    }
    // The Node's first version: nothing is scheduled against a Node without room.
    const created = firstSeen[0]!;
    expect(created.status?.allocatable?.pods).toBe('110');
    expect(Object.keys(created.status?.capacity ?? {})).toEqual(expect.arrayContaining(['cpu', 'memory', 'ephemeral-storage', 'pods']));
    expect(created.status?.conditions?.map((x) => x.type)).toEqual(['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready']);
    expect(created.status?.nodeInfo?.kubeletVersion).toBe('v1.32.0');
  });
});
