// Kubelet admission: a pod bound to the node by hand that does not fit is
// rejected with upstream's reason and message, and nothing of it starts.

import type { Node, Pod } from '@kubelab/api';
import { parseQuantity } from '@kubelab/api';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL, pod, podEvents, startCluster, type Cluster } from './harness.js';

describe.skipIf(!requireTool('nats-server'))('kubelet admission', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await startCluster({ kubelet: { memoryCapacityBytes: 1024 * 1024 * 1024 } });
    await waitFor('node-1 allocatable cpu', async () => ((await c.cs.core.nodes().get('node-1')) as Node).status?.allocatable?.cpu, POLL);
  }, 30_000);
  afterAll(async () => {
    await c?.dispose();
  });

  it('a pod asking for more CPU than the node has fails OutOfcpu, "Pod was rejected: ...", with a Warning event and no sandbox', async () => {
    const node = (await c.cs.core.nodes().get('node-1')) as Node;
    const capacity = parseQuantity(node.status!.allocatable!.cpu!).milliValue();
    await c.cs.core.pods('default').create(pod('greedy', { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '600'], resources: { requests: { cpu: '64' } } }] }));
    const rejected = await waitFor(
      'greedy Failed',
      async () => {
        const p = (await c.cs.core.pods('default').get('greedy')) as Pod;
        return p.status?.phase === 'Failed' ? p : undefined;
      },
      POLL,
    );
    const message = `Node didn't have enough resource: cpu, requested: 64000, used: 0, capacity: ${capacity}`;
    expect(rejected.status).toMatchObject({ phase: 'Failed', reason: 'OutOfcpu', message: `Pod was rejected: ${message}` });
    expect(await podEvents(c.cs, 'greedy')).toContain(`OutOfcpu: ${message}`);
    const sandboxes = [...c.containerd.runtime.sandboxes.values()].filter((s) => s.config.metadata?.name === 'greedy');
    expect(sandboxes).toEqual([]);
  });

  it('a pod whose nodeSelector the node does not match fails NodeAffinity', async () => {
    await c.cs.core.pods('default').create(pod('picky', { nodeSelector: { disktype: 'ssd' }, containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '600'] }] }));
    const rejected = await waitFor(
      'picky Failed',
      async () => {
        const p = (await c.cs.core.pods('default').get('picky')) as Pod;
        return p.status?.phase === 'Failed' ? p : undefined;
      },
      POLL,
    );
    expect(rejected.status).toMatchObject({ reason: 'NodeAffinity', message: "Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector" });
  });
});
