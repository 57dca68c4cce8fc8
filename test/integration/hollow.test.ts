// Hollow nodes (issue 22): `kubelab up --nodes 50 --hollow` runs the workers
// as hollow nodes, real kubelets with their simulated runtimes, 50 of them in
// one hollow-node process. A user sees ordinary nodes: all Ready, each with
// its own address, in zones round-robin; a Deployment's pods run on them, and
// `kubectl logs` and `kubectl exec` reach them through each node's kubelet API.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import { AGENT_DAEMONSET, LocalCluster } from './local-cluster.js';

const ready = requireTool('nats-server') && requireTool('kubectl');
const NODES = 50;

describe.runIf(ready)('hollow nodes (kubelab up --hollow)', { timeout: 300_000 }, () => {
  const cluster = new LocalCluster('kubelab-hollow-');
  const kubectl = (args: string[], stdin?: string) => cluster.kubectl(args, stdin);

  beforeAll(async () => {
    // The control plane and 50 nodes on a shared two-core machine: the deadline is generous, not the expectation.
    await cluster.up(['--nodes', String(NODES), '--hollow', '--port-offset', '24100'], 420_000);
  }, 450_000);

  afterAll(async () => {
    await cluster.down();
  });

  it('starts the workers as hollow nodes in one process, not five processes per node', async () => {
    expect(cluster.output).toMatch(/^started hollow-node-1 \(pid \d+\)$/m);
    expect(cluster.output).not.toMatch(/^started (kubelet|containerd|kube-proxy)-1 /m);
  });

  it('shows every node Ready, each with its own address and a zone label', async () => {
    const out = (await kubectl(['get', 'nodes', '-L', 'topology.kubernetes.io/zone', '-o', 'wide'])).stdout;
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\s+INTERNAL-IP\s+EXTERNAL-IP\s+OS-IMAGE\s+KERNEL-VERSION\s+CONTAINER-RUNTIME\s+ZONE$/);
    expect(lines).toHaveLength(NODES + 2);
    expect(out).toMatch(/^node-1\s+Ready\s+<none>\s+\S+\s+v1\.32\.0\s+127\.100\.0\.1\s+<none>\s+.*containerd:\/\/\S+\s+zone-a$/m);
    expect(out).toMatch(/^node-2\s+Ready\s+<none>\s+\S+\s+v1\.32\.0\s+127\.100\.0\.2\s+.*\s+zone-b$/m);
    expect(out).toMatch(/^node-50\s+Ready\s+<none>\s+\S+\s+v1\.32\.0\s+127\.100\.0\.50\s+.*\s+zone-b$/m);
    const zones = (await kubectl(['get', 'nodes', '-l', 'topology.kubernetes.io/zone=zone-c', '-o', 'name'])).stdout.trim().split('\n');
    expect(zones).toHaveLength(16);
  });

  it('gives every hollow node its own client certificate, as kubemark its kubeconfig: no TLS bootstrap, no CSR', async () => {
    // The one request is control-plane's (real) kubelet rotating the certificate kubeadm init embedded in its kubelet.conf.
    const csrs = await kubectl(['get', 'csr', '-o', 'jsonpath={range .items[*]}{.spec.username}{"\\n"}{end}']);
    expect(csrs.stdout).toBe('system:node:control-plane\n');
  });

  it("holds each node's Lease, renewed by its own kubelet", async () => {
    const out = (await kubectl(['-n', 'kube-node-lease', 'get', 'lease', 'node-37'])).stdout;
    expect(out).toMatch(/^NAME\s+HOLDER\s+AGE$/m);
    expect(out).toMatch(/^node-37\s+node-37\s+\S+$/m);
  });

  it("keeps the node add-ons off the hollow nodes, as kubemark's hollow node runs its own proxy and NPD; a user's DaemonSet runs on each", async () => {
    for (const [ns, name] of [
      ['kube-system', 'kube-proxy'],
      ['kube-system', 'node-problem-detector'],
      ['kube-system', 'kube-network-policies'],
    ] as const) {
      expect((await kubectl(['-n', ns, 'rollout', 'status', `ds/${name}`, '--timeout=120s'])).stdout).toContain(`daemon set "${name}" successfully rolled out`);
      // DESIRED CURRENT READY UP-TO-DATE AVAILABLE: the control-plane node's pod only.
      expect((await kubectl(['-n', ns, 'get', 'ds', name, '--no-headers'])).stdout).toMatch(new RegExp(`^${name}\\s+1\\s+1\\s+1\\s+1\\s+1\\s`));
    }
    expect((await kubectl(['apply', '-f', '-'], AGENT_DAEMONSET)).stdout).toBe('daemonset.apps/agent created\n');
    expect((await kubectl(['rollout', 'status', 'ds/agent', '--timeout=180s'])).stdout).toContain('daemon set "agent" successfully rolled out');
    // Every hollow node; not the control-plane node (its NoSchedule taint is not tolerated). A node that has just turned
    // Ready may still carry node.kubernetes.io/not-ready:NoSchedule until the node lifecycle controller lifts it (seconds
    // on a loaded machine, CI stop 44: 46 of 50); the DaemonSet counts it once it is lifted, as upstream's.
    const all = new RegExp(`^agent\\s+${NODES}\\s+${NODES}\\s+${NODES}\\s+${NODES}\\s+${NODES}\\s`);
    let last = '';
    await waitFor(`DaemonSet agent on all ${NODES} hollow nodes`, async () => all.test((last = (await kubectl(['get', 'ds', 'agent', '--no-headers'])).stdout)), { timeoutMs: 120_000 }).catch(
      async (e: Error) => {
        const taints = (await kubectl(['get', 'nodes', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.spec.taints[*].key}{"\\n"}{end}'])).stdout;
        throw new Error(
          `${e.message}\n${last}\n${taints
            .split('\n')
            .filter((l) => l.includes(' node.'))
            .join('\n')}`,
        );
      },
    );
    expect((await kubectl(['delete', 'ds', 'agent'])).code).toBe(0);
  });

  it("runs a Deployment's pods on hollow nodes, with logs and exec through their kubelets", async () => {
    expect((await kubectl(['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=20'])).code).toBe(0);
    const rollout = await kubectl(['rollout', 'status', 'deployment/web', '--timeout=180s']);
    expect(rollout.stdout).toContain('deployment "web" successfully rolled out');
    const pods = (await kubectl(['get', 'pods', '-l', 'app=web', '-o', 'wide', '--no-headers'])).stdout.trim().split('\n');
    expect(pods).toHaveLength(20);
    for (const p of pods) expect(p).toMatch(/^web-\S+\s+1\/1\s+Running\s+0\s+\S+\s+10\.244\.\d+\.\d+\s+node-\d+\s+<none>\s+<none>$/);
    const name = pods[0]!.split(/\s+/)[0]!;
    const logs = await waitFor('nginx start-up lines', async () => {
      const r = await kubectl(['logs', name]);
      return r.code === 0 && r.stdout.includes('start worker processes') ? r.stdout : undefined;
    });
    expect(logs).toMatch(/nginx\/1\.27/);
    const exec = await kubectl(['exec', name, '--', 'hostname']);
    expect(exec).toMatchObject({ code: 0, stdout: `${name}\n` });
  });
});
