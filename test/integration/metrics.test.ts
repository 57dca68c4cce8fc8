// Metrics through the aggregation layer, as a user sees them: `kubelab up`
// registers metrics-server (its Deployment, Service and APIService
// v1beta1.metrics.k8s.io, as upstream's components.yaml), the apiserver's
// availability controller marks it Available once the Service has an
// endpoint that answers discovery, and the real kubectl's `top` prints
// upstream's tables for a pod burning one core (the runtime's `stress
// --cpu 1`). Without endpoints the APIService says MissingEndpoints and
// `kubectl top` that the Metrics API is not available. The horizontal pod
// autoscaler reads the same API: `kubectl autoscale` scales a busy
// deployment up and, with a zero stabilization window, back down.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import { LocalCluster, KUBECTL } from './local-cluster.js';

const ready = requireTool('nats-server') && requireTool('kubectl');

describe.runIf(ready)('metrics-server and kubectl top (local runner)', { timeout: 240_000 }, () => {
  const cluster = new LocalCluster('kubelab-metrics-');
  const dir = cluster.dir;

  const kubectl = (args: string[]) => cluster.kubectl(args);
  const apiService = async () => (await kubectl(['get', 'apiservice', 'v1beta1.metrics.k8s.io'])).stdout;

  beforeAll(async () => {
    // One node and the control plane on a shared machine: the deadline is generous, not the expectation.
    await cluster.up(['--nodes', '1', '--port-offset', '22800'], 240_000);
  }, 270_000);

  afterAll(async () => {
    await cluster.down();
  });

  it('registers metrics-server as components.yaml does and reports the APIService Available', async () => {
    expect(cluster.output).toContain('[addons] Applied addon: metrics-server (Deployment kube-system/metrics-server, APIService v1beta1.metrics.k8s.io)');
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

    // metrics-server reports a container once two of its scrapes hold it; on a loaded machine a scrape can miss one.
    const apiserverRow = /^kube-system\s+kube-apiserver-control-plane\s+kube-apiserver\s+\d+m\s+\d+Mi\s*$/m;
    const all = await waitFor(
      'the control plane in kubectl top pods -A',
      async () => {
        const out = (await kubectl(['top', 'pods', '-A', '--containers'])).stdout;
        return apiserverRow.test(out) ? out : undefined;
      },
      { timeoutMs: 60_000, everyMs: 5_000 },
    );
    expect(all).toMatch(/^NAMESPACE\s+POD\s+NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)\s*$/m);
    expect(all).toMatch(/^default\s+busy\s+busy\s+\d+m\s+\d+Mi\s*$/m);
    expect(all).toMatch(apiserverRow);

    const raw = JSON.parse((await kubectl(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/busy'])).stdout) as { kind: string; window: string; containers: { name: string }[] };
    expect(raw.kind).toBe('PodMetrics');
    expect(raw.window).toMatch(/^1\d(\.\d+)?s$/);
    expect(raw.containers.map((c) => c.name)).toEqual(['busy']);
    const missing = await kubectl(['top', 'pod', 'nosuch']);
    expect(missing.stderr).toContain('Error from server (NotFound): podmetrics.metrics.k8s.io "default/nosuch" not found');
  });

  it('kubectl autoscale: a busy deployment scales up with SuccessfulRescale, and down at once with a zero stabilization window', async () => {
    // One pod burning a core against a 200m request: 500% of it, ten times the 50% target; max 3.
    const deployment = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web, namespace: default}',
      'spec:',
      '  replicas: 1',
      '  selector: {matchLabels: {app: web}}',
      '  template:',
      '    metadata: {labels: {app: web}}',
      '    spec:',
      '      containers: [{name: stress, image: docker.io/polinux/stress, command: [stress, --cpu, "1"], resources: {requests: {cpu: 200m}}}]',
      '',
    ].join('\n');
    const apply = spawn(KUBECTL, ['--kubeconfig', join(dir, 'kubeconfig'), 'apply', '-f', '-']);
    apply.stdin.end(deployment);
    expect(await new Promise((r) => apply.once('exit', r))).toBe(0);
    expect((await kubectl(['autoscale', 'deployment', 'web', '--cpu-percent=50', '--min=1', '--max=3'])).stdout.trim()).toBe('horizontalpodautoscaler.autoscaling/web autoscaled');
    // The controller looks at an HPA one sync period (15 s) after it changes, then every period.
    const row = await waitFor(
      'hpa at 3 replicas',
      async () => {
        const out = (await kubectl(['get', 'hpa', 'web'])).stdout;
        return /^web\s+Deployment\/web\s+cpu: \d+%\/50%\s+1\s+3\s+3\s+\S+\s*$/m.test(out) ? out : undefined;
      },
      { timeoutMs: 150_000, everyMs: 3_000 },
    );
    expect(row).toMatch(/^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE\s*$/m);
    const events = (
      await kubectl(['get', 'events', '--field-selector', 'involvedObject.kind=HorizontalPodAutoscaler,reason=SuccessfulRescale', '-o', 'jsonpath={range .items[*]}{.message}{"\\n"}{end}'])
    ).stdout;
    expect(events).toContain('New size: 3; reason: cpu resource utilization (percentage of request) above target');
    expect((await kubectl(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}'])).stdout).toBe('3');
    const conditions = (await kubectl(['get', 'hpa', 'web', '-o', 'jsonpath={range .status.conditions[*]}{.type}={.status} {.reason}{"\\n"}{end}'])).stdout;
    expect(conditions).toMatch(/^ScalingActive=True ValidMetricFound$/m);

    // A target far above the usage and no stabilization: down to minReplicas.
    const patch = {
      spec: { behavior: { scaleDown: { stabilizationWindowSeconds: 0 } }, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 5000 } } }] },
    };
    expect((await kubectl(['patch', 'hpa', 'web', '--type=merge', '-p', JSON.stringify(patch)])).code).toBe(0);
    await waitFor('deployment back at 1', async () => ((await kubectl(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}'])).stdout === '1' ? true : undefined), {
      timeoutMs: 120_000,
      everyMs: 3_000,
    });
    const down = (
      await kubectl(['get', 'events', '--field-selector', 'involvedObject.kind=HorizontalPodAutoscaler,reason=SuccessfulRescale', '-o', 'jsonpath={range .items[*]}{.message}{"\\n"}{end}'])
    ).stdout;
    expect(down).toMatch(/New size: 1; reason: All metrics below target/);
    expect((await kubectl(['delete', 'hpa', 'web'])).code).toBe(0);
    expect((await kubectl(['delete', 'deployment', 'web'])).code).toBe(0);
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
