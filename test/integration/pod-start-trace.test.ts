// One trace per pod start, export off: after `kubectl create deployment`, the
// Deployment's kubelab.io/traceparent, its ReplicaSet's, its pod's and the
// pod's CRI records (RunPodSandbox → CreateContainer → StartContainer) carry
// one trace id, and `kubelab trace --all-components` prints the apiserver's
// writes (who asked) and those CRI calls in start order, naming the pod, and
// kube-proxy's rules sync once the Deployment is exposed.

import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import { LocalCluster, RUNNER } from './local-cluster.js';

const ANNOTATION = 'kubelab.io/traceparent';

interface Line {
  time: string;
  source?: string;
  component?: string;
  method?: string;
  verb?: string;
  resource?: string;
  subresource?: string;
  namespace: string | null;
  pod?: string | null;
  name?: string | null;
  traceId: string | null;
  user?: string;
  /** A scheduling decision's outcome (source kube-scheduler). */
  result?: string;
  /** A kube-proxy sync (source kube-proxy): its node, mode, counts and the change that queued it. */
  node?: string;
  mode?: string;
  services?: number;
  trigger?: string;
  changes?: number;
}

const traceIdOf = (tp: string | undefined) => (tp && /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/.test(tp) ? tp.slice(3, 35) : undefined);

describe.runIf(requireTool('nats-server') && requireTool('kubectl'))('a pod start is one trace (export off)', { timeout: 120_000 }, () => {
  const cluster = new LocalCluster('kubelab-podtrace-');
  const dir = cluster.dir;
  const kubectl = (args: string[]) => cluster.kubectl(args);
  const annotationOf = async (args: string[]) => {
    const r = await kubectl([...args, '-o', 'json']);
    return (JSON.parse(r.stdout) as { metadata: { annotations?: Record<string, string> } }).metadata.annotations?.[ANNOTATION];
  };

  beforeAll(async () => {
    await cluster.up(['--nodes', '1', '--port-offset', '20800'], 270_000);
  }, 300_000);

  afterAll(async () => {
    await cluster.down();
  });

  it('Deployment → ReplicaSet → pod → RunPodSandbox → CreateContainer → StartContainer share one trace id, in order, with the writes of who asked', async () => {
    // The viewer as users run it, watching before the Deployment exists.
    const viewer = spawn(process.execPath, [RUNNER, 'trace', '--all-components', '--json', '--state-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    let notes = '';
    viewer.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    viewer.stderr!.on('data', (d: Buffer) => (notes += d.toString()));
    const exited = new Promise<number | null>((r) => viewer.once('exit', (c) => r(c)));
    try {
      await waitFor('the viewer to watch', async () => (notes.includes('watching CRI calls on ') ? true : undefined), { timeoutMs: 15_000 });
      expect(notes).toContain("the apiserver's writes (kubelab.api.>), the scheduler's decisions (kubelab.sched.>) and kube-proxy's syncs (kubelab.proxy.>)");
      expect((await kubectl(['create', 'deployment', 'ptrace', '--image=nginx'])).stdout).toBe('deployment.apps/ptrace created\n');
      const pod = await waitFor(
        'the pod Running',
        async () => {
          const r = await kubectl(['get', 'pods', '-l', 'app=ptrace', '--no-headers']);
          const m = /^(\S+)\s+1\/1\s+Running\s/m.exec(r.stdout);
          return m?.[1];
        },
        { timeoutMs: 60_000, everyMs: 500 },
      );
      const deployTrace = traceIdOf(await annotationOf(['get', 'deployment', 'ptrace']));
      expect(deployTrace).toMatch(/^[0-9a-f]{32}$/);
      const rs = (await kubectl(['get', 'rs', '-l', 'app=ptrace', '-o', 'jsonpath={.items[0].metadata.name}'])).stdout;
      expect(traceIdOf(await annotationOf(['get', 'rs', rs]))).toBe(deployTrace);
      expect(traceIdOf(await annotationOf(['get', 'pod', pod]))).toBe(deployTrace);

      const parse = () =>
        out
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Line);
      const criOfPod = () => parse().filter((l) => l.method && l.pod === pod);
      await waitFor('the StartContainer record', async () => (criOfPod().some((l) => l.method === 'StartContainer') ? true : undefined), { timeoutMs: 15_000, everyMs: 200 });

      const steps = criOfPod().filter((l) => ['RunPodSandbox', 'CreateContainer', 'StartContainer'].includes(l.method!));
      expect(steps.map((l) => [l.method, l.namespace, l.traceId])).toEqual([
        ['RunPodSandbox', 'default', deployTrace],
        ['CreateContainer', 'default', deployTrace],
        ['StartContainer', 'default', deployTrace],
      ]);

      // The writes of the pod start, each naming who asked, in the same trace and in start order with the CRI calls.
      const lines = parse();
      const writes = lines.filter((l) => l.source === 'kube-apiserver' && l.traceId === deployTrace);
      const what = (l: Line) => `${l.verb} ${l.resource}${l.subresource ? `/${l.subresource}` : ''}`;
      expect(writes.filter((l) => l.verb === 'create').map(what)).toEqual(['create deployments', 'create replicasets', 'create pods', 'create pods/binding']);
      // The scheduler's decision for the pod carries the same trace.
      expect(lines.find((l) => l.source === 'kube-scheduler' && l.name === pod)).toMatchObject({ result: 'Scheduled', traceId: deployTrace });
      expect(writes.find((l) => what(l) === 'create replicasets')).toMatchObject({ user: 'system:serviceaccount:kube-system:deployment-controller', component: 'kube-controller-manager' });
      const at = (pred: (l: Line) => boolean) => lines.findIndex(pred);
      const order = [
        at((l) => l.verb === 'create' && l.resource === 'deployments' && l.name === 'ptrace'),
        at((l) => l.verb === 'create' && l.resource === 'pods' && !l.subresource && l.name === pod),
        at((l) => l.source === 'kube-scheduler' && l.result === 'Scheduled' && l.name === pod),
        at((l) => l.subresource === 'binding' && l.name === pod),
        at((l) => l.method === 'RunPodSandbox' && l.pod === pod),
        at((l) => l.method === 'StartContainer' && l.pod === pod),
      ];
      expect(order.every((i) => i >= 0)).toBe(true);
      expect(order).toEqual([...order].sort((a, b) => a - b));

      // A Service for the pod: kube-proxy's rules sync on the node is a line too, naming the change that queued it.
      const proxyLines = () => parse().filter((l) => l.source === 'kube-proxy');
      const before = proxyLines();
      const baseline = before.at(-1)?.services;
      expect((await kubectl(['expose', 'deployment', 'ptrace', '--port=80'])).stdout).toBe('service/ptrace exposed\n');
      const sync = await waitFor(
        "kube-proxy's sync for the Service",
        async () => {
          const after = proxyLines().slice(before.length);
          // A sync's trigger is the first change since the last one: when another change (a DNS pod's slice) came first,
          // the Service rides in that sync, which then counts one Service more than the sync before.
          const found = after.find((l) => l.trigger?.includes('default/ptrace')) ?? after.find((l) => baseline !== undefined && (l.services ?? 0) > baseline && (l.changes ?? 0) > 1);
          if (found) return found;
          throw new Error(`kube-proxy's lines since the expose: ${JSON.stringify(after.slice(-4))} (the one before counted ${baseline} services)`);
        },
        { timeoutMs: 30_000, everyMs: 200 },
      );
      expect(sync).toMatchObject({ node: expect.stringMatching(/^(control-plane|node-1)$/), mode: 'iptables' });
      expect(sync.services).toBeGreaterThanOrEqual(2);
    } finally {
      viewer.kill('SIGINT');
      await exited;
    }
  });
});
