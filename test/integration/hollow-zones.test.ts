// The node lifecycle controller's zone logic on hollow nodes (issue 22):
// `kubelab hollow stop` takes a zone's nodes down as a power loss would
// (kubelet and runtime end: no Lease renewals, no status), and what the user
// sees through the real kubectl follows upstream's rules:
//
// - one zone down in a healthy cluster: NotReady (Ready=Unknown "Kubelet
//   stopped posting node status."), NodeNotReady events, and the taint
//   node.kubernetes.io/unreachable:NoExecute at --node-eviction-rate, one
//   node per 1/rate seconds (the zone is fully disrupted, the others not);
// - 3 of 5 nodes down in a zone larger than --large-cluster-size-threshold:
//   partial disruption, --secondary-node-eviction-rate;
// - 3 of 4 in a zone of at most the threshold: partial disruption, no taint;
// - every zone down: master disruption mode, taints lifted and none added;
// - started again: Ready, no taint.
//
// Timings are shortened (lease renewed each second, 6 s grace, 2 s monitor
// period, 0.5 and 0.1 nodes/s) so the whole file takes minutes. 14 hollow
// nodes: zone-a holds node-1,4,7,10,13 (5), zone-b 2,5,8,11,14 (5), zone-c
// 3,6,9,12 (4); the threshold is 4.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import { AGENT_DAEMONSET, LocalCluster } from './local-cluster.js';

const ready = requireTool('nats-server') && requireTool('kubectl');
const NODES = 14;
const RATE = 0.5;
const SECONDARY_RATE = 0.1;
const FLAGS = [
  '--node-monitor-period=2s',
  '--node-monitor-grace-period=6s',
  `--node-eviction-rate=${RATE}`,
  `--secondary-node-eviction-rate=${SECONDARY_RATE}`,
  '--large-cluster-size-threshold=4',
  '--unhealthy-zone-threshold=0.55',
  // The kubelets (hollow and the control-plane node's) renew their Lease every second.
  '--node-lease-duration-seconds=4',
];
const ZONE_A = ['node-1', 'node-4', 'node-7', 'node-10', 'node-13'];

interface NodeView {
  name: string;
  zone: string;
  ready: string;
  reason: string;
  message: string;
  /** NoExecute taints: key → timeAdded (seconds since the epoch). */
  noExecute: Map<string, number>;
  noSchedule: string[];
}

describe.runIf(ready)('zones on hollow nodes (kubelab hollow stop|start, the node lifecycle controller)', { timeout: 600_000 }, () => {
  const cluster = new LocalCluster('kubelab-zones-');
  const kubectl = (args: string[], stdin?: string) => cluster.kubectl(args, stdin);
  const hollow = (args: string[]) => cluster.kubelab(['hollow', ...args], 120_000);
  const controllerLog = () => readFileSync(join(cluster.dir, 'logs', 'controller-manager.log'), 'utf8');

  async function nodes(): Promise<NodeView[]> {
    const r = await kubectl(['get', 'nodes', '-o', 'json']);
    if (r.code !== 0) throw new Error(r.stderr);
    const list = JSON.parse(r.stdout) as {
      items: Array<{
        metadata: { name: string; labels?: Record<string, string> };
        spec?: { taints?: Array<{ key: string; effect: string; timeAdded?: string }> };
        status?: { conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> };
      }>;
    };
    return list.items.map((n) => {
      const r = n.status?.conditions?.find((c) => c.type === 'Ready');
      const taints = n.spec?.taints ?? [];
      return {
        name: n.metadata.name,
        zone: n.metadata.labels?.['topology.kubernetes.io/zone'] ?? '',
        ready: r?.status ?? '',
        reason: r?.reason ?? '',
        message: r?.message ?? '',
        noExecute: new Map(taints.filter((t) => t.effect === 'NoExecute').map((t) => [t.key, Date.parse(t.timeAdded ?? '') / 1000])),
        noSchedule: taints.filter((t) => t.effect === 'NoSchedule').map((t) => t.key),
      };
    });
  }
  const unreachable = (ns: NodeView[]) => ns.filter((n) => n.noExecute.has('node.kubernetes.io/unreachable'));
  /** The unreachable taints' times, in order, once `count` nodes carry one. */
  const taintTimes = (count: number, timeoutMs: number) =>
    waitFor(
      `${count} nodes tainted unreachable:NoExecute`,
      async () => {
        const t = unreachable(await nodes());
        return t.length >= count ? t.map((n) => n.noExecute.get('node.kubernetes.io/unreachable')!).sort((a, b) => a - b) : undefined;
      },
      { timeoutMs, everyMs: 1000 },
    );
  const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);
  /** Every node Ready again and no taint of the node lifecycle controller left. */
  const allReadyUntainted = () =>
    waitFor(
      'every node Ready without unreachable taints',
      async () => {
        const ns = await nodes();
        return ns.length === NODES + 1 && ns.every((n) => n.ready === 'True' && n.noExecute.size === 0 && !n.noSchedule.includes('node.kubernetes.io/unreachable'));
      },
      { timeoutMs: 90_000, everyMs: 1000 },
    );
  const notReady = (names: string[]) =>
    waitFor(
      `${names.join(' ')} NotReady`,
      async () => {
        const ns = await nodes();
        return names.every((name) => ns.find((n) => n.name === name)?.ready === 'Unknown');
      },
      { timeoutMs: 60_000, everyMs: 1000 },
    );
  const logged = (re: RegExp, what: string) => waitFor(what, () => re.test(controllerLog()), { timeoutMs: 30_000, everyMs: 500 });

  beforeAll(async () => {
    await cluster.up(['--nodes', String(NODES), '--hollow', '--port-offset', '24300', ...FLAGS], 420_000);
    await allReadyUntainted();
    // A DaemonSet of the user's on every hollow node (the node add-ons keep off them, as on kubemark's): its pods are
    // what the node lifecycle controller marks not ready when their node goes.
    expect((await kubectl(['apply', '-f', '-'], AGENT_DAEMONSET)).code).toBe(0);
    expect((await kubectl(['rollout', 'status', 'ds/agent', '--timeout=180s'])).stdout).toContain('daemon set "agent" successfully rolled out');
  }, 720_000);

  afterAll(async () => {
    // Fifteen kubelets and the control plane stop in seconds, but a loaded machine takes longer than the 10 s default.
    await cluster.down();
  }, 120_000);

  it('shows each zone running, then stops one zone as a power loss', async () => {
    expect((await hollow(['status'])).stdout).toBe(
      ['ZONE     NODES   RUNNING   STOPPED', 'zone-a   5       5         0', 'zone-b   5       5         0', 'zone-c   4       4         0', ''].join('\n'),
    );
    const stop = await hollow(['stop', '--zone', 'zone-a']);
    expect(stop).toMatchObject({ code: 0, stderr: '' });
    expect(stop.stdout).toMatch(/^5 hollow nodes stopped \(kubelet and runtime down, as if their power went\) in \d+\.\ds: node-1 node-4 node-7 node-10 node-13\n$/);
    expect((await hollow(['status'])).stdout).toContain('zone-a   5       0         5\n');
  });

  it('marks them NotReady and taints them unreachable:NoExecute at --node-eviction-rate, one every 2 s', async () => {
    const times = await taintTimes(5, 90_000);
    // timeAdded has whole seconds: 2 s apart is 1-3 s between stamps; a loaded machine may be late, never early.
    for (const g of gaps(times)) expect(g).toBeGreaterThanOrEqual(1);
    expect(times[4]! - times[0]!).toBeGreaterThanOrEqual(4 / RATE - 1);
    expect(
      unreachable(await nodes())
        .map((n) => n.name)
        .sort(),
    ).toEqual([...ZONE_A].sort());

    const table = (await kubectl(['get', 'nodes', '-l', 'topology.kubernetes.io/zone=zone-a', '--no-headers'])).stdout;
    for (const n of ZONE_A) expect(table).toMatch(new RegExp(`^${n}\\s+NotReady\\s+<none>\\s`, 'm'));
    const node1 = (await nodes()).find((n) => n.name === 'node-1')!;
    expect(node1).toMatchObject({ ready: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    const describe = (await kubectl(['describe', 'node', 'node-1'])).stdout;
    const taints = /^Taints:\s+(\S+)\n\s+(\S+)\n/m.exec(describe);
    expect([taints?.[1], taints?.[2]].sort()).toEqual(['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule']);
    expect((await kubectl(['get', 'nodes', '-l', 'topology.kubernetes.io/zone=zone-b', '--no-headers'])).stdout).not.toContain('NotReady');

    const events = (await kubectl(['get', 'events', '-A'])).stdout;
    for (const n of ZONE_A) expect(events).toMatch(new RegExp(`Normal\\s+NodeNotReady\\s+node/${n}\\s+Node ${n} status is now: NodeNotReady`));
    expect(events).toMatch(/Normal\s+RegisteredNode\s+node\/node-1\s+Node node-1 event: Registered Node node-1 in Controller/);
    // Their pods (the agent DaemonSet's) are marked not ready.
    expect(events).toMatch(/Warning\s+NodeNotReady\s+pod\/\S+\s+Node is not ready/);
    expect(controllerLog()).toMatch(/"Controller detected that zone is now in new state" zone=":\\u0000:zone-a" newState="FullDisruption"/);
  });

  it('starts them again: Ready, the taints lifted', async () => {
    const start = await hollow(['start', '--zone', 'zone-a']);
    expect(start.stdout).toMatch(/^5 hollow nodes started again in \d+\.\ds: node-1 node-4 node-7 node-10 node-13\n$/);
    await allReadyUntainted();
    expect((await kubectl(['get', 'events', '-A'])).stdout).toMatch(/Normal\s+NodeReady\s+node\/node-1\s+Node node-1 status is now: NodeReady/);
  });

  it('slows to --secondary-node-eviction-rate (one every 10 s) when 3 of 5 are down in a zone larger than --large-cluster-size-threshold', async () => {
    expect((await hollow(['stop', '--zone', 'zone-a', '--count', '3'])).stdout).toMatch(/^3 hollow nodes stopped .*: node-1 node-4 node-7\n$/);
    const times = await taintTimes(3, 120_000);
    for (const g of gaps(times)) expect(g).toBeGreaterThanOrEqual(1 / SECONDARY_RATE - 1);
    await logged(/zone=":\\u0000:zone-a" newState="PartialDisruption"/, 'zone-a in partial disruption');
    expect((await hollow(['start', '--zone', 'zone-a'])).code).toBe(0);
    await allReadyUntainted();
  });

  it('taints nothing when 3 of 4 are down in a zone of at most --large-cluster-size-threshold', async () => {
    expect((await hollow(['stop', '--zone', 'zone-c', '--count', '3'])).stdout).toMatch(/^3 hollow nodes stopped .*: node-3 node-6 node-9\n$/);
    await notReady(['node-3', 'node-6', 'node-9']);
    await logged(/zone=":\\u0000:zone-c" newState="PartialDisruption"/, 'zone-c in partial disruption');
    // Ten seconds would be five taints at the normal rate.
    for (let i = 0; i < 10; i++) {
      expect(unreachable(await nodes())).toEqual([]);
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect((await hollow(['start', '--all'])).code).toBe(0);
    await allReadyUntainted();
  });

  it('lifts every taint and taints no more when every zone is down (master disruption mode), until nodes come back', async () => {
    // The control-plane node keeps running: upstream's label leaves it out of the zones' states.
    expect((await kubectl(['label', 'node', 'control-plane', 'node.kubernetes.io/exclude-disruption='])).stdout).toBe('node/control-plane labeled\n');
    expect((await hollow(['stop', '--zone', 'zone-a'])).code).toBe(0);
    await taintTimes(1, 90_000);
    expect((await hollow(['stop', '--all'])).stdout).toMatch(/^9 hollow nodes stopped .*: node-2 node-3 node-5 node-6 node-8 node-9 node-11 node-12 node-14\n5 already stopped\n$/);
    await logged(/"Controller detected that all Nodes are not-Ready. Entering master disruption mode"/, 'master disruption mode');
    await waitFor('the taints lifted', async () => unreachable(await nodes()).length === 0, { timeoutMs: 30_000, everyMs: 1000 });
    await notReady(Array.from({ length: NODES }, (_, i) => `node-${i + 1}`));
    for (let i = 0; i < 10; i++) {
      expect(unreachable(await nodes())).toEqual([]);
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect((await hollow(['start', '--all'])).stdout).toMatch(/^14 hollow nodes started again/);
    await allReadyUntainted();
    // The kubelets report Ready themselves and the taints were lifted already: the controller says so at its next monitor pass (2 s).
    await logged(/"Controller detected that some Nodes are Ready. Exiting master disruption mode"/, 'master disruption mode exited');
  });
});
