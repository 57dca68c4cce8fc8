// End to end: the compose `hollow` profile on a real Docker engine: the
// control plane, its node, and HOLLOW_NODES hollow nodes in one container
// (services/kubemark), each with its own address on the cluster network.
// Checked as a user would: kubectl through the published port, `docker
// compose stop|start hollow-nodes` for the nodes' power.
//
// Images: built by compose (cached by Docker; compose.test.ts builds most of
// them first); KUBELAB_E2E_BUILD=0 uses the images already tagged
// kubelab/*:${KUBELAB_TAG:-dev}. A project of its own
// (KUBELAB_E2E_HOLLOW_PROJECT, default kubelab-e2e-hollow).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, requirePrerequisite, requireTool, waitFor } from '@kubelab/testing';
import { compose, containerName, detectCompose, docker, dockerEngineUp, kubectl, removeStack, startStack, type Stack } from './harness.js';

const PROJECT = process.env.KUBELAB_E2E_HOLLOW_PROJECT || 'kubelab-e2e-hollow';
const NODES = 12;
/** The control plane, its node, the hollow nodes and the host's kubeconfig; compose starts what they depend on. */
const SERVICES = ['kubelet-control-plane', 'scheduler', 'controller-manager', 'hollow-nodes', 'kubeconfig'];
const IMAGES = ['kubeadm-init', 'apiserver', 'scheduler', 'controller-manager', 'control-plane', 'containerd-control-plane', 'kubelet-control-plane', 'hollow-nodes'];
const PROFILE = ['--profile', 'hollow'];

const cli = detectCompose();
const canRun = requireTool('kubectl') && requirePrerequisite('docker compose (v2) or docker-compose (v1)', cli !== undefined) && requirePrerequisite('a running Docker engine', dockerEngineUp());

/** Address number n (1-based, .1 to .250 of each /24) of the top /22 of `subnet`, computed here on its own, not by kubemark's code. */
function topBlockAddress(subnet: string, n: number): string {
  const [ip, prefix] = subnet.split('/') as [string, string];
  const value = ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
  const size = 2 ** (32 - Number(prefix));
  const at = value - (value % size) + size - 1024 + Math.floor((n - 1) / 250) * 256 + ((n - 1) % 250) + 1;
  return [24, 16, 8, 0].map((s) => Math.floor(at / 2 ** s) % 256).join('.');
}

describe.runIf(canRun)('compose profile hollow: hollow nodes beside the control plane', () => {
  let stack: Stack;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubelab-e2e-hollow-'));
    const vars = {
      APISERVER_PORT: String(await freePort()),
      NATS_PORT: String(await freePort()),
      KUBECONFIG_DIR: dir,
      HOLLOW_NODES: String(NODES),
      // A short grace period for the power-loss step (the README's faster-demo setting).
      NODE_MONITOR_GRACE_PERIOD: '20s',
    };
    stack = { cli: cli!, project: PROJECT, env: { ...process.env, ...vars }, kubeconfig: join(dir, 'kubeconfig') };
    await startStack(stack, { flags: PROFILE, images: IMAGES, services: SERVICES });
    await waitFor(
      `${NODES} hollow nodes Ready`,
      async () => {
        const out = await kubectl(stack, ['get', 'nodes', '--no-headers'], { allowFail: true });
        return (out.match(/^hollow-node-\d+\s+Ready\s/gm) ?? []).length === NODES ? true : undefined;
      },
      { timeoutMs: 240_000, everyMs: 2000 },
    );
  }, 25 * 60_000);

  afterAll(async () => {
    if (stack) await removeStack(stack, PROFILE);
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 200_000);

  it("writes each hollow node's identity (kubeadm-hollow) and starts them all in one container", async () => {
    const logs = await compose(stack, [...PROFILE, 'logs', '--no-color', 'kubeadm-hollow', 'hollow-nodes']);
    expect(logs).toContain(`[hollow] Wrote kubelet.conf for ${NODES} hollow nodes (hollow-node-1 … hollow-node-${NODES}) under "/var/lib/kubelab/hollow", and bootstrap-kubelet.conf`);
    expect(logs).toMatch(new RegExp(`${NODES} hollow nodes started \\(hollow-node-1 … hollow-node-${NODES}\\)`));
    // kubemark's ready kubeconfigs: no TLS bootstrap, so no CertificateSigningRequest of a hollow node.
    expect(await kubectl(stack, ['get', 'csr', '-o', 'name'], { allowFail: true })).not.toContain('hollow-node');
  });

  it('shows every hollow node Ready with its own address on the cluster network, in zones round-robin', async () => {
    const subnet = (await docker(['network', 'inspect', '-f', '{{(index .IPAM.Config 0).Subnet}}', `${PROJECT}_cluster`])).trim();
    const out = await kubectl(stack, ['get', 'nodes', '-o', 'wide', '-L', 'topology.kubernetes.io/zone']);
    const ip = (n: number) => topBlockAddress(subnet, n).replace(/\./g, '\\.');
    expect(out).toMatch(new RegExp(`^hollow-node-1\\s+Ready\\s+<none>\\s+\\S+\\s+v1\\.32\\.0\\s+${ip(1)}\\s+<none>\\s+.*containerd://\\S+\\s+zone-a$`, 'm'));
    expect(out).toMatch(new RegExp(`^hollow-node-2\\s+Ready\\s+<none>\\s+\\S+\\s+v1\\.32\\.0\\s+${ip(2)}\\s+.*\\s+zone-b$`, 'm'));
    expect(out).toMatch(new RegExp(`^hollow-node-${NODES}\\s+Ready\\s+<none>\\s+\\S+\\s+v1\\.32\\.0\\s+${ip(NODES)}\\s+.*\\s+zone-c$`, 'm'));
    expect(await kubectl(stack, ['-n', 'kube-node-lease', 'get', 'lease', 'hollow-node-5', '-o', 'jsonpath={.spec.holderIdentity}'])).toBe('hollow-node-5');
  });

  it('keeps the node add-ons and CoreDNS off the hollow nodes', async () => {
    // DESIRED CURRENT: control-plane's pod only (its readiness is kube-proxy-control-plane's, not started here).
    expect(await kubectl(stack, ['-n', 'kube-system', 'get', 'ds', 'kube-proxy', '--no-headers'])).toMatch(/^kube-proxy\s+1\s+1\s/);
    // Placed again now that hollow nodes exist (they were created when control-plane was the only node). Where the new
    // pods are scheduled is what counts: their readiness needs kube-proxy-control-plane, not started here.
    const podsAndNodes = async () =>
      (await kubectl(stack, ['-n', 'kube-system', 'get', 'pods', '-l', 'k8s-app=kube-dns', '-o', 'custom-columns=NAME:.metadata.name,NODE:.spec.nodeName', '--no-headers']))
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/) as [string, string]);
    const before = new Set((await podsAndNodes()).map(([name]) => name));
    await kubectl(stack, ['-n', 'kube-system', 'rollout', 'restart', 'deployment/coredns']);
    const dns = await waitFor(
      'the restarted CoreDNS pods scheduled',
      async () => {
        const fresh = (await podsAndNodes()).filter(([name]) => !before.has(name));
        return fresh.length === 2 && fresh.every(([, node]) => node !== '<none>') ? fresh.map(([, node]) => node).join('\n') : undefined;
      },
      { timeoutMs: 60_000, everyMs: 2000 },
    );
    expect(dns.split('\n')).toEqual(['control-plane', 'control-plane']);
  });

  it("runs a Deployment's pods on hollow nodes; kubectl logs and exec reach each node's kubelet at its address", async () => {
    await kubectl(stack, ['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=6']);
    expect(await kubectl(stack, ['rollout', 'status', 'deployment/web', '--timeout=120s'])).toContain('deployment "web" successfully rolled out');
    const pods = (await kubectl(stack, ['get', 'pods', '-l', 'app=web', '-o', 'wide', '--no-headers'])).trim().split('\n');
    expect(pods).toHaveLength(6);
    for (const p of pods) expect(p).toMatch(/^web-\S+\s+1\/1\s+Running\s+0\s+\S+\s+10\.244\.\d+\.\d+\s+hollow-node-\d+\s+<none>\s+<none>$/);
    const name = pods[0]!.split(/\s+/)[0]!;
    const logs = await waitFor(
      'nginx start-up lines',
      async () => {
        const out = await kubectl(stack, ['logs', name]);
        return out.includes('start worker processes') ? out : undefined;
      },
      { timeoutMs: 30_000, everyMs: 1000 },
    );
    expect(logs).toMatch(/nginx\/1\.27/);
    expect(await kubectl(stack, ['exec', name, '--', 'hostname'])).toBe(`${name}\n`);
  });

  it('docker compose stop hollow-nodes: every hollow node NotReady after the grace period; start: Ready again', async () => {
    await compose(stack, [...PROFILE, 'stop', '-t', '5', 'hollow-nodes']);
    const notReady = await waitFor(
      'the hollow nodes NotReady',
      async () => {
        const out = await kubectl(stack, ['get', 'nodes', '--no-headers']);
        return (out.match(/^hollow-node-\d+\s+NotReady\s/gm) ?? []).length === NODES ? out : undefined;
      },
      { timeoutMs: 120_000, everyMs: 2000 },
    );
    expect(notReady).toMatch(/^control-plane\s+Ready\s/m);
    expect(await kubectl(stack, ['get', 'node', 'hollow-node-7', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].message}'])).toBe('Kubelet stopped posting node status.');
    await compose(stack, [...PROFILE, 'start', 'hollow-nodes']);
    await waitFor(
      'the hollow nodes Ready again',
      async () => {
        const out = await kubectl(stack, ['get', 'nodes', '--no-headers']);
        return (out.match(/^hollow-node-\d+\s+Ready\s/gm) ?? []).length === NODES ? true : undefined;
      },
      { timeoutMs: 120_000, everyMs: 2000 },
    );
    expect((await docker(['inspect', '-f', '{{.State.Running}}', containerName(stack, 'hollow-nodes')])).trim()).toBe('true');
  });
});
