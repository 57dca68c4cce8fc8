import type { Node } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { newTestKubelet } from '../testing/test-kubelet.js';

const readyOf = (n: Node | undefined) => n?.status?.conditions?.find((c) => c.type === 'Ready')?.status;

describe('node status syncs, one at a time (upstream syncNodeStatusMux)', () => {
  it("a sync computed before the runtime's network became ready does not post NotReady after the Ready one", async () => {
    const t = newTestKubelet();
    const network = (ready: boolean) => (t.runtime.conditions = t.runtime.conditions.map((c) => (c.type === 'NetworkReady' ? { ...c, status: ready } : c)));
    t.addNode();
    // A PLEG that has relisted (else the node is not ready for that reason).
    await t.relist();
    network(false);
    await t.kubelet.nodeStatus.runtimeUp();
    // The first status write waits until released, as a slow apiserver answers.
    const core = t.api.clientset.core as { nodes: () => ReturnType<typeof t.api.clientset.core.nodes> };
    const nodesOf = core.nodes.bind(core);
    let release = (): void => undefined;
    const gate = new Promise<void>((r) => (release = r));
    /** The Ready status of each write, in the order they reached the apiserver. */
    const posted: (string | undefined)[] = [];
    // Status goes as a strategic merge patch of nodes/status (upstream PatchNodeStatus): the Ready it carries.
    const readyIn = (patch: unknown) => (patch as { status?: { conditions?: { type: string; status?: string }[] } }).status?.conditions?.find((c) => c.type === 'Ready')?.status;
    core.nodes = () => {
      const n = nodesOf();
      type PatchArgs = Parameters<typeof n.patch>;
      const post = (...a: PatchArgs) => (posted.push(readyIn(a[2])), n.patch(...a));
      return Object.assign(Object.create(n) as typeof n, { patch: async (...a: PatchArgs) => (posted.length === 0 && readyIn(a[2]) === 'False' ? gate.then(() => post(...a)) : post(...a)) });
    };
    const first = t.kubelet.nodeStatus.syncNodeStatus(true);
    await new Promise((r) => setTimeout(r, 10));
    // The pod CIDR arrives: the runtime's network is ready, and the flip asks for a sync of its own.
    network(true);
    await t.kubelet.nodeStatus.runtimeUp();
    // Give the flip's sync time to post (it does, without the one-at-a-time rule) before the first write lands.
    for (let i = 0; i < 20 && !posted.includes('True'); i++) await new Promise((r) => setTimeout(r, 5));
    release();
    await first;
    await new Promise((r) => setTimeout(r, 20));
    expect(posted).toEqual(['False', 'True']);
    expect(readyOf(t.api.peek<Node>({ group: '', version: 'v1', resource: 'nodes' }, '', 'node-1'))).toBe('True');
  });
});
