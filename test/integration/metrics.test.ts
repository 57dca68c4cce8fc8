// Metrics through the aggregation layer, as a user sees them: `kubelab up`
// registers metrics-server (its Deployment, Service and APIService
// v1beta1.metrics.k8s.io, as upstream's components.yaml), the apiserver's
// availability controller marks it Available once the Service has an
// endpoint that answers discovery, and the real kubectl's `top` prints
// upstream's tables for a pod burning one core (the runtime's `stress
// --cpu 1`). Without endpoints the APIService says MissingEndpoints and
// `kubectl top` that the Metrics API is not available.

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

const ready = requireTool('nats-server') && requireTool('kubectl');

describe.runIf(ready)('metrics-server and kubectl top (local runner)', { timeout: 240_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-metrics-'));
  let runner: ChildProcess;
  let output = '';

  const kubectl = (args: string[]) =>
    new Promise<{ stdout: string; stderr: string; code: number }>((resolve) => {
      execFile(KUBECTL, ['--kubeconfig', join(dir, 'kubeconfig'), '--cache-dir', join(dir, 'kcache'), ...args], { timeout: 30_000 }, (err, stdout, stderr) =>
        resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 }),
      );
    });
  const apiService = async () => (await kubectl(['get', 'apiservice', 'v1beta1.metrics.k8s.io'])).stdout;

  beforeAll(async () => {
    runner = spawn(process.execPath, [RUNNER, 'up', '--nodes', '1', '--state-dir', dir, '--port-offset', '22800'], { stdio: ['ignore', 'pipe', 'pipe'] });
    runner.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    runner.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    // One node and the control plane on a shared machine: the deadline is generous, not the expectation.
    await waitFor('cluster ready', async () => (output.includes('cluster ready') ? true : undefined), { timeoutMs: 240_000 });
  }, 270_000);

  afterAll(async () => {
    if (runner && runner.exitCode === null) {
      runner.kill('SIGTERM');
      await new Promise((r) => runner.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('registers metrics-server as components.yaml does and reports the APIService Available', async () => {
    expect(output).toContain('[addons] Applied addon: metrics-server (Deployment kube-system/metrics-server, APIService v1beta1.metrics.k8s.io)');
    const row = await waitFor(
      'APIService Available',
      async () => {
        const out = await apiService();
        return /^v1beta1\.metrics\.k8s\.io\s+kube-system\/metrics-server\s+True\s+\S+$/m.test(out) ? out : undefined;
      },
      { timeoutMs: 120_000, everyMs: 2_000 },
    );
    expect(row).toMatch(/^NAME\s+SERVICE\s+AVAILABLE\s+AGE$/m);
    // The built-in groups are not listed: kubelab registers no Local APIServices.
    const cond = JSON.parse((await kubectl(['get', 'apiservice', 'v1beta1.metrics.k8s.io', '-o', 'jsonpath={.status.conditions[0]}'])).stdout) as Record<string, string>;
    expect(cond).toMatchObject({ type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed' });
    const resources = (await kubectl(['api-resources', '--api-group=metrics.k8s.io'])).stdout;
    expect(resources).toMatch(/^nodes\s+metrics\.k8s\.io\/v1beta1\s+false\s+NodeMetrics$/m);
    expect(resources).toMatch(/^pods\s+metrics\.k8s\.io\/v1beta1\s+true\s+PodMetrics$/m);
  });

  it('prints kubectl top nodes and top pods for a pod burning one core', async () => {
    expect((await kubectl(['run', 'busy', '--image=docker.io/polinux/stress', '--restart=Never', '--command', '--', 'stress', '--cpu', '1'])).code).toBe(0);
    const pod = await waitFor(
      'busy in kubectl top pod',
      async () => {
        const r = await kubectl(['top', 'pod', 'busy']);
        return r.code === 0 ? r.stdout : undefined;
      },
      { timeoutMs: 90_000, everyMs: 3_000 },
    );
    expect(pod).toMatch(/^NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)\s*$/m);
    const cpu = Number(/^busy\s+(\d+)m\s+\d+Mi\s*$/m.exec(pod)?.[1]);
    expect(cpu).toBeGreaterThan(800);
    expect(cpu).toBeLessThan(1200);

    const nodes = (await kubectl(['top', 'nodes'])).stdout;
    expect(nodes).toMatch(/^NAME\s+CPU\(cores\)\s+CPU\(%\)\s+MEMORY\(bytes\)\s+MEMORY\(%\)\s*$/m);
    expect(nodes).toMatch(/^node-1\s+\d+m\s+\d+%\s+\d+Mi\s+\d+%\s*$/m);
    expect(nodes).toMatch(/^control-plane\s+\d+m\s+\d+%\s+\d+Mi\s+\d+%\s*$/m);

    const all = (await kubectl(['top', 'pods', '-A', '--containers'])).stdout;
    expect(all).toMatch(/^NAMESPACE\s+POD\s+NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)\s*$/m);
    expect(all).toMatch(/^default\s+busy\s+busy\s+\d+m\s+\d+Mi\s*$/m);
    expect(all).toMatch(/^kube-system\s+kube-apiserver-control-plane\s+kube-apiserver\s+\d+m\s+\d+Mi\s*$/m);

    const raw = JSON.parse((await kubectl(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/busy'])).stdout) as { kind: string; window: string; containers: { name: string }[] };
    expect(raw.kind).toBe('PodMetrics');
    expect(raw.window).toMatch(/^1\d(\.\d+)?s$/);
    expect(raw.containers.map((c) => c.name)).toEqual(['busy']);
    const missing = await kubectl(['top', 'pod', 'nosuch']);
    expect(missing.stderr).toContain('Error from server (NotFound): podmetrics.metrics.k8s.io "default/nosuch" not found');
  });

  it('says MissingEndpoints without a ready metrics-server pod, and kubectl top that the Metrics API is not available', async () => {
    expect((await kubectl(['-n', 'kube-system', 'scale', 'deployment', 'metrics-server', '--replicas=0'])).code).toBe(0);
    await waitFor(
      'APIService MissingEndpoints',
      async () => (/^v1beta1\.metrics\.k8s\.io\s+kube-system\/metrics-server\s+False \(MissingEndpoints\)\s+\S+$/m.test(await apiService()) ? true : undefined),
      {
        timeoutMs: 60_000,
        everyMs: 1_000,
      },
    );
    const top = await kubectl(['top', 'nodes']);
    expect(top.code).not.toBe(0);
    expect(top.stderr).toContain('error: Metrics API not available');
    expect((await kubectl(['-n', 'kube-system', 'scale', 'deployment', 'metrics-server', '--replicas=1'])).code).toBe(0);
    await waitFor('Available again', async () => (/\s+True\s+\S+$/m.test(await apiService()) ? true : undefined), { timeoutMs: 90_000, everyMs: 2_000 });
  });
});
