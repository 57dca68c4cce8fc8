// One trace per pod start, export off: after `kubectl create deployment`, the
// Deployment's kubelab.io/traceparent, its ReplicaSet's, its pod's and the
// pod's CRI records (RunPodSandbox → CreateContainer → StartContainer) carry
// one trace id, and `kubelab trace --all-components` prints the apiserver's
// writes (who asked) and those CRI calls in start order, naming the pod.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUNNER = join(ROOT, 'packages/kubelab/dist/main.js');
const KUBECTL = '/usr/bin/kubectl';
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
}

const traceIdOf = (tp: string | undefined) => (tp && /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/.test(tp) ? tp.slice(3, 35) : undefined);

describe.runIf(requireTool('nats-server') && requireTool('kubectl'))('a pod start is one trace (export off)', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-podtrace-'));
  let runner: ChildProcess;
  let output = '';
  const kubectl = (args: string[]) =>
    new Promise<{ stdout: string; stderr: string; code: number }>((resolve) => {
      execFile(KUBECTL, ['--kubeconfig', join(dir, 'kubeconfig'), '--cache-dir', join(dir, 'kcache'), ...args], { timeout: 30_000 }, (err, stdout, stderr) =>
        resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 }),
      );
    });
  const annotationOf = async (args: string[]) => {
    const r = await kubectl([...args, '-o', 'json']);
    return (JSON.parse(r.stdout) as { metadata: { annotations?: Record<string, string> } }).metadata.annotations?.[ANNOTATION];
  };

  beforeAll(async () => {
    runner = spawn(process.execPath, [RUNNER, 'up', '--nodes', '1', '--state-dir', dir, '--port-offset', '20800'], { stdio: ['ignore', 'pipe', 'pipe'] });
    runner.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    runner.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    await waitFor('cluster ready', async () => (output.includes('cluster ready') ? true : undefined), { timeoutMs: 270_000 });
  }, 300_000);

  afterAll(async () => {
    if (runner && runner.exitCode === null) {
      runner.kill('SIGTERM');
      await new Promise((r) => runner.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
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
      expect(notes).toContain("and the apiserver's writes (kubelab.api.>)");
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
      expect(writes.find((l) => what(l) === 'create replicasets')).toMatchObject({ user: 'system:serviceaccount:kube-system:deployment-controller', component: 'kube-controller-manager' });
      const at = (pred: (l: Line) => boolean) => lines.findIndex(pred);
      const order = [
        at((l) => l.verb === 'create' && l.resource === 'deployments' && l.name === 'ptrace'),
        at((l) => l.verb === 'create' && l.resource === 'pods' && !l.subresource && l.name === pod),
        at((l) => l.subresource === 'binding' && l.name === pod),
        at((l) => l.method === 'RunPodSandbox' && l.pod === pod),
        at((l) => l.method === 'StartContainer' && l.pod === pod),
      ];
      expect(order.every((i) => i >= 0)).toBe(true);
      expect(order).toEqual([...order].sort((a, b) => a - b));
    } finally {
      viewer.kill('SIGINT');
      await exited;
    }
  });
});
