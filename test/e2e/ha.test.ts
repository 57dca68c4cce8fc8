// End to end: the compose `ha` profile (docker/ha.env) on a real Docker
// engine, its control plane and the control-plane node (kubeadm's phases
// wait for it; no workers: the HA parts are what is checked): three NATS servers with the object store at replicas 3, three
// apiservers behind haproxy, schedulers and controller-managers electing one
// leader each. Checked as a user would: kubectl through the balancer's
// published port, `docker compose logs` and `stop`.
//
// Images: built by compose (cached by Docker); KUBELAB_E2E_BUILD=0 uses the
// images already tagged kubelab/*:${KUBELAB_TAG:-dev}. A project of its own
// (KUBELAB_E2E_HA_PROJECT, default kubelab-e2e-ha) beside compose.test.ts's.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, requirePrerequisite, requireTool, waitFor } from '@kubelab/testing';
import { compose, containerName, detectCompose, docker, dockerEngineUp, kubectl, removeStack, startStack, type Stack } from './harness.js';

const PROJECT = process.env.KUBELAB_E2E_HA_PROJECT || 'kubelab-e2e-ha';
/** The control plane, its node and the host's kubeconfig; compose starts what they depend on (NATS, kubeadm's one-shots, haproxy). */
const SERVICES = ['kubelet-control-plane', 'scheduler', 'scheduler-2', 'scheduler-3', 'controller-manager', 'controller-manager-2', 'controller-manager-3', 'haproxy', 'kubeconfig-ha'];
/** Images of those services (the kubelab CLI's is kubeadm-init's). */
const IMAGES = ['kubeadm-init', 'apiserver', 'scheduler', 'controller-manager', 'haproxy', 'control-plane', 'containerd-control-plane', 'kubelet-control-plane'];
/** The documented switches; --profile too, for a compose that does not read COMPOSE_PROFILES from an env file. */
const ENV_FILE = ['--env-file', 'docker/ha.env', '--profile', 'ha'];

const cli = detectCompose();
const canRun = requireTool('kubectl') && requirePrerequisite('docker compose (v2) or docker-compose (v1)', cli !== undefined) && requirePrerequisite('a running Docker engine', dockerEngineUp());

describe.runIf(canRun)('compose profile ha: a highly available control plane', () => {
  let stack: Stack;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubelab-e2e-ha-'));
    const vars = {
      APISERVER_PORT: String(await freePort()),
      NATS_PORT: String(await freePort()),
      HA_APISERVER_PORT: String(await freePort()),
      KUBECONFIG_DIR: dir,
    };
    stack = { cli: cli!, project: PROJECT, env: { ...process.env, ...vars }, kubeconfig: join(dir, 'kubeconfig-ha') };
    await startStack(stack, { flags: ENV_FILE, images: IMAGES, services: SERVICES });
    await waitFor(
      'haproxy healthy (an apiserver ready behind it)',
      async () => ((await docker(['inspect', '-f', '{{.State.Health.Status}}', containerName(stack, 'haproxy')])).trim() === 'healthy' ? true : undefined),
      { timeoutMs: 180_000, everyMs: 2000 },
    );
  }, 25 * 60_000);

  afterAll(async () => {
    if (stack) await removeStack(stack, ENV_FILE);
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 200_000);

  it("makes the object store's bucket replicas 3 on the NATS cluster", async () => {
    const logs = await compose(stack, [...ENV_FILE, 'logs', '--no-color', 'kubeadm-ha', 'kubeadm-nats']);
    expect(logs).toContain('[nats] Cluster "kubelab" of nats, nats-2, nats-3: routes on 6222');
    expect(logs).toContain('Wrote "/etc/haproxy/haproxy.cfg": haproxy in front of apiserver, apiserver-2, apiserver-3');
    expect(logs).toMatch(/The object store's bucket has 3 replicas \(RAFT leader nats(-[23])?\)/);
  });

  it('answers kubectl through haproxy; the kubernetes Service lists every apiserver (master leases)', async () => {
    expect(await kubectl(stack, ['get', '--raw', '/readyz'])).toBe('ok');
    const ips: string[] = [];
    for (const s of ['apiserver', 'apiserver-2', 'apiserver-3']) {
      const ip = (await docker(['inspect', '-f', `{{(index .NetworkSettings.Networks "${PROJECT}_cluster").IPAddress}}`, containerName(stack, s)])).trim();
      expect(ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      ips.push(ip);
    }
    // kubectl prints the first three addresses, in the order the reconciler keeps them (the leases' keys sorted).
    const want = ips
      .sort()
      .map((ip) => `${ip}:6443`)
      .join(',');
    const endpoints = await waitFor(
      'all three apiservers in the kubernetes endpoints',
      async () => {
        const out = (await kubectl(stack, ['get', 'endpoints', 'kubernetes', '--no-headers'])).trim();
        return out.split(/\s+/)[1] === want ? out : undefined;
      },
      { timeoutMs: 30_000, everyMs: 2000 },
    );
    expect(endpoints).toMatch(new RegExp(`^kubernetes\\s+${want.replace(/\./g, '\\.')}\\s+\\S+$`));
  });

  it('drops a killed apiserver from the kubernetes endpoints once its master lease expires, and adds it back when it returns', async () => {
    const ipOf = async (s: string) => (await docker(['inspect', '-f', `{{(index .NetworkSettings.Networks "${PROJECT}_cluster").IPAddress}}`, containerName(stack, s)])).trim();
    const addresses = async () => (await kubectl(stack, ['get', 'endpoints', 'kubernetes', '-o', 'jsonpath={.subsets[0].addresses[*].ip}'])).trim().split(/\s+/);
    const killed = await ipOf('apiserver-3');
    // No shutdown: the lease stays until its 15 s TTL has passed and another apiserver's 10 s pass deletes it.
    await compose(stack, [...ENV_FILE, 'kill', 'apiserver-3']);
    try {
      const left = await waitFor('apiserver-3 gone from the endpoints', async () => ((await addresses()).includes(killed) ? undefined : addresses()), { timeoutMs: 60_000, everyMs: 2000 });
      expect(left).toHaveLength(2);
    } finally {
      await compose(stack, [...ENV_FILE, 'start', 'apiserver-3']);
    }
    const back = await ipOf('apiserver-3');
    const all = await waitFor('apiserver-3 back in the endpoints', async () => ((await addresses()).includes(back) ? addresses() : undefined), { timeoutMs: 90_000, everyMs: 2000 });
    expect(all).toHaveLength(3);
  });

  it('elects one scheduler by Lease, and another takes over when the leader stops', async () => {
    const holder = async () => (await kubectl(stack, ['-n', 'kube-system', 'get', 'lease', 'kube-scheduler', '-o', 'jsonpath={.spec.holderIdentity}'])).trim();
    const first = await waitFor('a kube-scheduler holder', async () => (await holder()) || undefined, { timeoutMs: 60_000, everyMs: 1000 });
    expect(await kubectl(stack, ['-n', 'kube-system', 'get', 'lease', 'kube-controller-manager', '-o', 'jsonpath={.spec.holderIdentity}'])).not.toBe('');
    // The identity is the container's hostname and a UUID (upstream's id), so it names the service that leads.
    const leader = await waitFor(
      'the leading scheduler container',
      async () => {
        for (const s of ['scheduler', 'scheduler-2', 'scheduler-3']) {
          const host = (await docker(['inspect', '-f', '{{.Config.Hostname}}', containerName(stack, s)])).trim();
          if (first.startsWith(`${host}_`)) return s;
        }
        return undefined;
      },
      { timeoutMs: 10_000 },
    );
    await compose(stack, [...ENV_FILE, 'stop', '-t', '1', leader]);
    const next = await waitFor('a new kube-scheduler holder', async () => ((await holder()) !== first ? holder() : undefined), { timeoutMs: 90_000, everyMs: 2000 });
    expect(next).not.toBe(first);
    await compose(stack, [...ENV_FILE, 'start', leader]);
  });

  it('keeps writing with one NATS server and one apiserver stopped', async () => {
    await compose(stack, [...ENV_FILE, 'stop', '-t', '1', 'nats-2', 'apiserver-2']);
    try {
      const created = await waitFor(
        'a write with nats-2 and apiserver-2 down',
        async () => {
          const out = await kubectl(stack, ['create', 'configmap', 'ha-write'], { allowFail: true });
          return out.includes('configmap/ha-write created') || out.includes('already exists') ? out : undefined;
        },
        { timeoutMs: 60_000, everyMs: 2000 },
      );
      expect(created).toMatch(/configmap\/ha-write created|already exists/);
      // The read may land on another apiserver, whose consistent read waits only for its own writes (docs/architecture.md:
      // not linearizable across apiservers, where upstream's GET asks etcd): read until it shows, within 10 s.
      const read = await waitFor(
        'the write read back through the load balancer',
        async () => {
          const out = await kubectl(stack, ['get', 'configmap', 'ha-write', '-o', 'jsonpath={.metadata.name}'], { allowFail: true });
          return out === 'ha-write' ? out : undefined;
        },
        { timeoutMs: 10_000, everyMs: 500 },
      );
      expect(read).toBe('ha-write');
    } finally {
      await compose(stack, [...ENV_FILE, 'start', 'nats-2', 'apiserver-2']);
    }
  });
});
