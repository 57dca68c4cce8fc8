// End to end: the compose stack on a real Docker engine, checked through what
// a user sees — the real kubectl, `docker compose` and `pnpm kubelab trace`.
// One stack for the whole file (the scenarios build on each other, as in the
// README's walk-through); timings shortened by the documented variables.
//
// Images: `up --build` (cached by Docker); KUBELAB_E2E_BUILD=0 uses the images
// already tagged kubelab/*:${KUBELAB_TAG:-dev}. Offline machines set
// NODE_IMAGE/NATS_IMAGE to the stand-ins of scripts/offline-images.sh.

import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import * as dnsPacket from 'dns-packet';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { httpsRequest } from '@kubelab/apiserver/testing';
import { connect as natsConnect } from '@nats-io/transport-node';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerComposeEnvironment, Wait, type StartedDockerComposeEnvironment } from 'testcontainers';
import { freePort, requirePrerequisite, requireTool, waitFor, PROBEDEMO_MANIFEST } from '@kubelab/testing';
import { REPO_ROOT, compose, containerName, detectCompose, docker, dockerEngineUp, httpFromNode, kubectl, kubectlJson, type Stack } from './harness.js';
import { getNodeCondition, isPodReady, parseQuantity, type EndpointSlice, type Event, type KubeList, type Node, type Pod, type Service } from '@kubelab/api';

/**
 * `node -e` inside a control-plane container: one GET to its own HTTPS port
 * (the certificate is self-signed: not verified), anonymous or with
 * admin.conf's client certificate; prints `<status> <body>`.
 */
const SECURE_PORT_GET = `
const conf = require('fs').readFileSync('/etc/kubernetes/admin.conf', 'utf8');
const data = (k) => Buffer.from(new RegExp(k + ': ([A-Za-z0-9+/=]+)').exec(conf)[1], 'base64');
const [as, port, path] = process.argv.slice(1);
const who = as === 'admin' ? { cert: data('client-certificate-data'), key: data('client-key-data') } : {};
require('https').get({ host: '127.0.0.1', port: Number(port), path, rejectUnauthorized: false, ...who }, (r) => {
  let b = '';
  r.on('data', (c) => (b += c));
  r.on('end', () => console.log(r.statusCode + ' ' + b));
}).on('error', (e) => console.log('error ' + e.message));
`;

// The documented variables, shortened for a test run (README "Compose stack").
const GRACE_MS = 16_000;
const LEASE_SECONDS = 8; // renewed every 2 s (a quarter of it)
const TOLERATION_SECONDS = 15;
const TIME_SCALE = 5;
const TIMINGS = {
  NODE_MONITOR_GRACE_PERIOD: `${GRACE_MS / 1000}s`,
  NODE_MONITOR_PERIOD: '1s',
  NODE_LEASE_DURATION_SECONDS: String(LEASE_SECONDS),
  NODE_STATUS_UPDATE_FREQUENCY: '2s',
  DEFAULT_TOLERATION_SECONDS: String(TOLERATION_SECONDS),
  TIME_SCALE: String(TIME_SCALE),
};

// Services with a healthcheck in docker-compose.yml.
const HEALTHCHECKED = [
  'apiserver',
  'scheduler',
  'controller-manager',
  'containerd-control-plane',
  'kubelet-control-plane',
  'kube-proxy-control-plane',
  'containerd-1',
  'kubelet-1',
  'kube-proxy-1',
  'containerd-2',
  'kubelet-2',
  'kube-proxy-2',
  'node-problem-detector-control-plane',
  'node-problem-detector-1',
  'node-problem-detector-2',
  'metrics-server',
];
// KUBELAB_E2E_PROJECT: a name of its own when two runs share one Docker engine (each one's start tears down leftovers of its name).
const PROJECT = process.env.KUBELAB_E2E_PROJECT || 'kubelab-e2e';

const cli = detectCompose();
const canRun =
  requireTool('docker') && requireTool('kubectl') && requirePrerequisite('docker compose / docker-compose', cli !== undefined) && requirePrerequisite('a running Docker engine', dockerEngineUp());

describe.skipIf(!canRun).sequential('compose stack end to end', () => {
  let stack: Stack;
  let env: StartedDockerComposeEnvironment | undefined;
  let kubeconfigDir: string;
  let natsPort: number;
  let downDone = false;

  beforeAll(async () => {
    process.env.TESTCONTAINERS_RYUK_DISABLED = 'true'; // the reaper image cannot be pulled here; afterAll cleans up
    // The stack publishes its ports on 127.0.0.1 only. Inside a container
    // (/.dockerenv) testcontainers would otherwise probe them on the bridge
    // gateway, where nothing listens, and wait until its timeout.
    process.env.TESTCONTAINERS_HOST_OVERRIDE = '127.0.0.1';
    kubeconfigDir = mkdtempSync(join(tmpdir(), 'kubelab-e2e-'));
    natsPort = await freePort();
    const vars = {
      ...TIMINGS,
      APISERVER_PORT: String(await freePort()),
      NATS_PORT: String(natsPort),
      KUBECONFIG_DIR: kubeconfigDir,
    };
    stack = { cli: cli!, project: PROJECT, env: { ...process.env, ...vars, COMPOSE_PROJECT_NAME: PROJECT }, kubeconfig: join(kubeconfigDir, 'kubeconfig') };
    // Leftovers of an interrupted earlier run would collide with this one.
    await compose(stack, ['down', '-v', '--remove-orphans', '-t', '1']);

    const tcName = (service: string) => (cli!.v2 ? `${service}-1` : `${PROJECT}_${service}_1`);
    let environment = new DockerComposeEnvironment(REPO_ROOT, 'docker-compose.yml').withProjectName(PROJECT).withEnvironment(vars).withStartupTimeout(180_000);
    if (!cli!.v2) environment = environment.withClientOptions({ executable: { standalone: true, executablePath: 'docker-compose' } });
    if (process.env.KUBELAB_E2E_BUILD !== '0') environment = environment.withBuild();
    for (const s of HEALTHCHECKED) environment = environment.withWaitStrategy(tcName(s), Wait.forHealthCheck());
    // NATS has no healthcheck in the compose file; its log line says when it serves.
    environment = environment.withWaitStrategy(tcName('nats'), Wait.forLogMessage(/Server is ready/));
    // host-ports (no healthcheck) listens once it logged its NodePort range.
    environment = environment.withWaitStrategy(tcName('host-ports'), Wait.forLogMessage(/host-ports nodeports/));
    env = await environment.up();
  }, 20 * 60_000);

  afterAll(async () => {
    if (env && !downDone) await env.down({ removeVolumes: true, timeout: 1_000 });
    if (kubeconfigDir) rmSync(kubeconfigDir, { recursive: true, force: true });
  }, 120_000);

  const getNode = (name: string) => kubectlJson<Node>(stack, ['get', 'node', name]);
  /** A command in a node's shell, as `docker compose exec node-1 bash -c …` runs it; stdout, stderr and the exit code. */
  const onNode = async (node: string, command: string) => {
    const r = spawnSync(stack.cli.command, [...stack.cli.prefix, '-p', stack.project, 'exec', '-T', node, 'bash', '-c', command], {
      cwd: REPO_ROOT,
      env: stack.env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { stdout: r.stdout, stderr: r.stderr, code: r.status };
  };
  const podsOf = async (selector: string) => (await kubectlJson<KubeList<Pod>>(stack, ['get', 'pods', '-l', selector])).items;
  /** Waits (polling kubectl every second) until pod `name` is Ready; resolves with it. */
  const readyPod = (what: string, name: string, timeoutMs: number) =>
    waitFor(
      what,
      async () => {
        const p = await kubectlJson<Pod>(stack, ['get', 'pod', name]);
        return isPodReady(p) ? p : undefined;
      },
      { timeoutMs, everyMs: 1_000 },
    );

  // ------------------------------------------------------------------ 1
  it('up: every service healthy, the kubeconfig works, control-plane, node-1 and node-2 Ready with the mock runtime', async () => {
    for (const s of HEALTHCHECKED) {
      const name = containerName(stack, s);
      const status = (await docker(['inspect', '-f', '{{.State.Health.Status}}', name])).trim();
      // An unhealthy service names its last probes' exit codes and output.
      const probes = status === 'healthy' ? '' : ` ${(await docker(['inspect', '-f', '{{range .State.Health.Log}}[{{.ExitCode}} {{.Output}}]{{end}}', name])).trim()}`;
      expect(`${s}: ${status}${probes}`).toBe(`${s}: healthy`);
    }
    for (const oneShot of ['kubeadm-init', 'kubeadm-nats', 'kubeconfig', 'cri-stream']) {
      expect(`${oneShot}: ${(await docker(['inspect', '-f', '{{.State.Status}} {{.State.ExitCode}}', containerName(stack, oneShot)])).trim()}`).toBe(`${oneShot}: exited 0`);
    }
    expect(readFileSync(stack.kubeconfig, 'utf8')).toContain(`server: https://127.0.0.1:${stack.env.APISERVER_PORT}`);

    // The runtime's own version string, read from the containerd image's code.
    const runtimeVersion = (
      await compose(stack, [
        'exec',
        '-T',
        'containerd-1',
        'node',
        '--input-type=module',
        '-e',
        "const m = await import('/app/dist/runtime.js'); console.log(m.RUNTIME_NAME + '://' + m.RUNTIME_VERSION)",
      ])
    ).trim();
    expect(runtimeVersion).toMatch(/^containerd:\/\/v\d/);

    const nodes = await waitFor(
      'all three nodes Ready',
      async () => {
        const list = (await kubectlJson<KubeList<Node>>(stack, ['get', 'nodes'])).items;
        return list.length === 3 && list.every((n) => getNodeCondition(n.status, 'Ready').condition?.status === 'True') ? list : undefined;
      },
      { timeoutMs: 90_000, everyMs: 1_000 },
    );
    expect(nodes.map((n) => n.metadata.name).sort()).toEqual(['control-plane', 'node-1', 'node-2']);
    for (const n of nodes) expect(n.status?.nodeInfo?.containerRuntimeVersion).toBe(runtimeVersion);

    const wide = await kubectl(stack, ['get', 'nodes', '-o', 'wide']);
    expect(wide).toMatch(new RegExp(`^node-1\\s+Ready\\s.*${runtimeVersion.replace(/[.]/g, '\\.')}`, 'm'));
    expect(wide).toMatch(new RegExp(`^node-2\\s+Ready\\s.*${runtimeVersion.replace(/[.]/g, '\\.')}`, 'm'));
    // The seed: "Die Spalte ROLES zeigt control-plane bei Steuerungs-Nodes" (kubeadm's mark-control-plane).
    const roles = await waitFor(
      'the control-plane role',
      async () => {
        const out = await kubectl(stack, ['get', 'nodes']);
        return /^control-plane\s+Ready\s+control-plane\s/m.test(out) ? out : undefined;
      },
      { timeoutMs: 60_000, everyMs: 1_000 },
    );
    expect(roles).toMatch(/^node-1\s+Ready\s+<none>\s/m);
    const cp = await kubectlJson<Node>(stack, ['get', 'node', 'control-plane']);
    expect(cp.spec?.taints).toEqual([{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
    const kubeadmLog = await compose(stack, ['logs', '--no-color', 'kubeadm']);
    expect(kubeadmLog).toContain('[addons] Applied essential addon: kube-proxy');
    expect(kubeadmLog).toContain('[addons] Applied addon: node-problem-detector (DaemonSet kube-system/node-problem-detector)');

    // "Selbst nachsehen", where kubelab has it: node conditions, the control
    // plane's leader-election Leases and the nodes' heartbeats.
    const describe = await kubectl(stack, ['describe', 'node', 'node-1']);
    const conditions = describe.slice(describe.indexOf('Conditions:')).split('\n').slice(0, 7).join('\n');
    expect(conditions).toMatch(/MemoryPressure\s+False\s.*KubeletHasSufficientMemory/);
    expect(conditions).toMatch(/DiskPressure\s+False\s.*KubeletHasNoDiskPressure/);
    expect(conditions).toMatch(/PIDPressure\s+False\s.*KubeletHasSufficientPID/);
    expect(conditions).toMatch(/Ready\s+True\s.*KubeletReady\s+kubelet is posting ready status/);
    const leases = await kubectl(stack, ['get', 'leases', '-A']);
    expect(leases).toMatch(/^kube-system\s+kube-scheduler\s+\S+/m);
    expect(leases).toMatch(/^kube-system\s+kube-controller-manager\s+\S+/m);
    expect(leases).toMatch(/^kube-node-lease\s+node-1\s+node-1\s/m);
    expect(leases).toMatch(/^kube-node-lease\s+node-2\s+node-2\s/m);
  });

  // ------------------------------------------------------------------ 1b
  it("secure as kubeadm sets it up: kubeadm-init's files in the volumes, the API over HTTPS only, kubectl and the official JS client as kubernetes-admin", async () => {
    const initLog = await compose(stack, ['logs', '--no-color', 'kubeadm-init']);
    expect(initLog).toMatch(/\[certs\] apiserver serving cert is signed for DNS names \[[^\]]*\bapiserver\b[^\]]*\] and IPs \[10\.96\.0\.1 127\.0\.0\.1\]/);
    expect(initLog).toContain('[kubeconfig] Writing "kubelet.conf" kubeconfig file');

    // The control plane's /etc/kubernetes: readable by its uid 1000, keys, kubeconfigs and the encryption key private.
    const files = ['pki/ca.crt', 'pki/apiserver.key', 'pki/sa.key', 'scheduler.conf', 'controller-manager.conf', 'encryption-config.yaml', 'authentication-config.yaml'];
    const stat = await compose(stack, ['exec', '-T', 'apiserver', 'stat', '-c', '%n %a %u', ...files.map((f) => `/etc/kubernetes/${f}`)]);
    // Certificates and the authentication config (no secret in it) are world-readable.
    const mode = (f: string) => (f.endsWith('.crt') || f === 'authentication-config.yaml' ? 644 : 600);
    expect(stat.trim().split('\n')).toEqual(files.map((f) => `/etc/kubernetes/${f} ${mode(f)} 1000`));
    // A node holds its own identities (its runtime's, kube-proxy's and its agent's for NATS too) and the CAs' certificates, never a CA's key
    // (node-1 joined: the bootstrap token's kubeconfig, and the one its kubelet wrote).
    const onNode = await compose(stack, ['exec', '-T', 'node-1', 'find', '/etc/kubernetes', '-type', 'f']);
    expect(onNode.split(/\s+/).filter(Boolean).sort()).toEqual([
      '/etc/kubernetes/bootstrap-kubelet.conf',
      '/etc/kubernetes/kube-network-policies.conf',
      '/etc/kubernetes/kube-proxy.conf',
      '/etc/kubernetes/kubelet.conf',
      '/etc/kubernetes/node-problem-detector.conf',
      '/etc/kubernetes/pki/ca.crt',
      '/etc/kubernetes/pki/containerd-nats-client.crt',
      '/etc/kubernetes/pki/containerd-nats-client.key',
      '/etc/kubernetes/pki/etcd/ca.crt',
      '/etc/kubernetes/pki/kube-proxy-nats-client.crt',
      '/etc/kubernetes/pki/kube-proxy-nats-client.key',
      '/etc/kubernetes/pki/node-agent-nats-client.crt',
      '/etc/kubernetes/pki/node-agent-nats-client.key',
    ]);

    // The host's kubeconfig is admin.conf: a client certificate, private to the user.
    expect(readFileSync(stack.kubeconfig, 'utf8')).toMatch(/client-certificate-data: \S+/);
    expect((statSync(stack.kubeconfig).mode & 0o777).toString(8)).toBe('600');
    // No plain HTTP on the published port.
    const plain = await fetch(`http://127.0.0.1:${stack.env.APISERVER_PORT}/api/v1/namespaces`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => `HTTP ${r.status}`,
      () => 'refused',
    );
    expect(plain).toMatch(/^(refused|HTTP 400)$/);

    // The official JS client, unchanged.
    const kc = new KubeConfig();
    kc.loadFromFile(stack.kubeconfig);
    expect(kc.getCurrentUser()?.name).toBe('kubernetes-admin');
    const namespaces = await kc.makeApiClient(CoreV1Api).listNamespace();
    expect(namespaces.items.map((n) => n.metadata?.name)).toEqual(expect.arrayContaining(['default', 'kube-system']));
    // Without credentials: the health and version paths only (authentication-config.yaml), 401 elsewhere.
    const ca = Buffer.from(kc.getCurrentCluster()!.caData!, 'base64').toString();
    const anonymous = (path: string) => httpsRequest(Number(stack.env.APISERVER_PORT), path, ca, {}).then((r) => `${r.status} ${r.body}`);
    expect(await anonymous('/readyz')).toBe('200 ok');
    expect(JSON.parse((await anonymous('/api/v1/secrets')).replace(/^401 /, ''))).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    // The scheduler's and controller-manager's ports: HTTPS (self-signed), health open, /metrics for whom RBAC allows it
    // (kubernetes-admin, cluster-admin through kubeadm:cluster-admins), asked of the apiserver by SubjectAccessReview.
    for (const [service, port] of [
      ['scheduler', 10259],
      ['controller-manager', 10257],
    ] as const) {
      const scrape = (path: string, as: 'admin' | 'anonymous') => compose(stack, ['exec', '-T', service, 'node', '-e', SECURE_PORT_GET, as, String(port), path]);
      expect(await scrape('/healthz', 'anonymous')).toBe('200 ok\n');
      const refused = await scrape('/metrics', 'anonymous');
      expect(JSON.parse(refused.replace(/^403 /, ''))).toMatchObject({ kind: 'Status', reason: 'Forbidden', message: 'forbidden: User "system:anonymous" cannot get path "/metrics"' });
      expect(await scrape('/metrics', 'admin')).toMatch(/^200 [\s\S]*^leader_election_master_status\{name="kube-/m);
    }
    // The real kubectl of every minor version this machine has (the dispatcher picks one by the server's).
    const dir = dirname(realpathSync('/usr/bin/kubectl'));
    for (const v of ['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'].filter((m) => existsSync(join(dir, `kubectl.${m}`)))) {
      const out = execFileSync(join(dir, `kubectl.${v}`), ['get', 'namespace', 'kube-system', '-o', 'name'], {
        env: { ...process.env, KUBECONFIG: stack.kubeconfig },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(`kubectl ${v}: ${out.trim()}`).toBe(`kubectl ${v}: namespace/kube-system`);
    }
  });

  // ------------------------------------------------------------------ 1c
  it('authorized as kubeadm does it (Node,RBAC): kubernetes-admin may do anything, anyone else only what a role or the Node authorizer grants', async () => {
    const mine = await kubectl(stack, ['auth', 'can-i', '--list']);
    expect(mine).toMatch(/^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
    expect((await kubectl(stack, ['auth', 'can-i', 'list', 'pods', '--as', 'jane'], { allowFail: true })).trim()).toBe('no');
    expect((await kubectl(stack, ['get', 'pods', '--as', 'jane'], { allowFail: true })).trim()).toBe(
      'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"',
    );

    // node-1's kubelet identity (the kubelet.conf it wrote after TLS bootstrap, its issued pair copied out,
    // server set to the published port): its own Node only.
    const node1Conf = join(kubeconfigDir, 'node-1-kubelet.conf');
    const node1Pem = join(kubeconfigDir, 'node-1-kubelet-client.pem');
    const pair = '/var/lib/kubelet/pki/kubelet-client-current.pem';
    writeFileSync(node1Pem, await compose(stack, ['exec', '-T', 'kubelet-1', 'cat', pair]), { mode: 0o600 });
    const conf = await compose(stack, ['exec', '-T', 'kubelet-1', 'cat', '/etc/kubernetes/kubelet.conf']);
    writeFileSync(node1Conf, conf.replace(/server: \S+/, `server: https://127.0.0.1:${stack.env.APISERVER_PORT}`).replaceAll(pair, node1Pem), { mode: 0o600 });
    const asNode1 = (args: string[]) => kubectl(stack, ['--kubeconfig', node1Conf, ...args], { allowFail: true }).then((o) => o.trim());
    expect(await asNode1(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).toBe('system:node:node-1');
    expect(await asNode1(['label', 'node', 'node-2', 'kubelab.io/e2e=x'])).toBe(
      `Error from server (Forbidden): nodes "node-2" is forbidden: User "system:node:node-1" cannot get resource "nodes" in API group "" at the cluster scope: node 'node-1' cannot read 'node-2', only its own Node object`,
    );
    // Its own Node, but not the labels NodeRestriction keeps from kubelets.
    expect(await asNode1(['label', 'node', 'node-1', 'node-restriction.kubernetes.io/e2e=x'])).toBe(
      'Error from server (Forbidden): nodes "node-1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/e2e',
    );
    expect(await asNode1(['get', 'secrets', '-A'])).toBe(
      'Error from server (Forbidden): secrets is forbidden: User "system:node:node-1" cannot list resource "secrets" in API group "" at the cluster scope: can only read namespaced object of this type',
    );
  });

  // ------------------------------------------------------------------ 1d
  it("NATS (etcd's role) on the published port: TLS only, a client certificate of the etcd CA required, each mapped to a user; the monitoring port not published", async () => {
    const port = Number(stack.env.NATS_PORT);
    // What any client sees first: the server's INFO line.
    const plain = tcpConnect(port, '127.0.0.1');
    const [info] = (await once(plain, 'data')) as [Buffer];
    plain.destroy();
    expect(JSON.parse(info.toString().replace(/^INFO /, ''))).toMatchObject({ tls_required: true, tls_verify: true, auth_required: true });

    // An anonymous client that trusts the etcd CA but has no certificate: refused at the handshake (alert 42, as etcd).
    const caPem = readFileSync(join(kubeconfigDir, 'pki/etcd/ca.crt'), 'utf8');
    const sock = tcpConnect(port, '127.0.0.1');
    await once(sock, 'data');
    const anon = tlsConnect({ socket: sock, servername: 'localhost', ca: caPem });
    anon.write('CONNECT {"verbose":false}\r\nPING\r\n');
    const answer = await new Promise<string>((resolve) => {
      anon.once('error', (e) => resolve(e.message));
      anon.once('data', (d: Buffer) => resolve(d.toString()));
    }).finally(() => anon.destroy());
    expect(answer).toMatch(/alert bad certificate.*SSL alert number 42/);

    // A certificate of the etcd CA that names no NATS user (kubeadm's etcd healthcheck client, read from the apiserver's pki/etcd).
    const pem = (f: string) => compose(stack, ['exec', '-T', 'apiserver', 'cat', `/etc/kubernetes/pki/etcd/${f}`]);
    const [cert, key] = await Promise.all([pem('healthcheck-client.crt'), pem('healthcheck-client.key')]);
    await expect(natsConnect({ servers: `nats://127.0.0.1:${port}`, timeout: 5_000, maxReconnectAttempts: 0, tls: { ca: caPem, cert, key } })).rejects.toThrow('Authorization Violation');

    // Published: 4222 on loopback only; the unauthenticated monitoring port 8222 stays inside.
    const published = (await docker(['port', containerName(stack, 'nats')])).trim().split('\n');
    expect(published).toEqual([`4222/tcp -> 127.0.0.1:${port}`]);
    // The host's trace identity (the kubeconfig service): read-only, private key mode 0600.
    expect(JSON.parse(readFileSync(join(kubeconfigDir, 'cluster.json'), 'utf8'))).toEqual({ natsUrl: `nats://127.0.0.1:${port}`, server: `https://127.0.0.1:${stack.env.APISERVER_PORT}` });
    expect((statSync(join(kubeconfigDir, 'pki/etcd/trace-client.key')).mode & 0o777).toString(8)).toBe('600');
    expect(existsSync(join(kubeconfigDir, 'pki/etcd/admin-client.key'))).toBe(false);
  });

  // ------------------------------------------------------------------ 1e
  it('node-1 and node-2 joined by TLS bootstrap: kubectl get csr shows their requests from the bootstrap token, Approved,Issued', async () => {
    const kubeadmLog = await compose(stack, ['logs', '--no-color', 'kubeadm']);
    const tokenId = /\[bootstrap-token\] Using token: ([a-z0-9]{6})\.<secret in \/etc\/kubernetes\/bootstrap-token\.json>/.exec(kubeadmLog)?.[1];
    expect(tokenId, kubeadmLog).toBeDefined();
    expect(kubeadmLog).toContain('[bootstrap-token] Creating the "cluster-info" ConfigMap in the "kube-public" namespace');
    const csr = await kubectl(stack, ['get', 'csr']);
    expect(csr).toMatch(/^NAME\s+AGE\s+SIGNERNAME\s+REQUESTOR\s+REQUESTEDDURATION\s+CONDITION$/m);
    // The workers asked with the bootstrap token; control-plane got kubelet.conf from kubeadm init and its kubelet
    // rotated that certificate as itself (csr-*), as upstream.
    const rows = csr.trim().split('\n').slice(1);
    expect(rows).toHaveLength(3);
    const bootstrap = rows.filter((r) => r.startsWith('node-csr-'));
    expect(bootstrap).toHaveLength(2);
    for (const row of bootstrap) {
      expect(row).toMatch(new RegExp(`^node-csr-[A-Za-z0-9_-]{43}\\s+\\S+\\s+kubernetes\\.io/kube-apiserver-client-kubelet\\s+system:bootstrap:${tokenId}\\s+<none>\\s+Approved,Issued$`));
    }
    expect(rows.find((r) => !r.startsWith('node-csr-'))).toMatch(/^csr-[a-z0-9]{5}\s+\S+\s+kubernetes\.io\/kube-apiserver-client-kubelet\s+system:node:control-plane\s+<none>\s+Approved,Issued$/);
    // kubelet-finalize: control-plane's kubelet.conf names that rotated pair too.
    expect(await compose(stack, ['exec', '-T', 'kubelet-control-plane', 'cat', '/etc/kubernetes/kubelet.conf'])).toContain('client-certificate: /var/lib/kubelet/pki/kubelet-client-current.pem');
    // The kubelet's kubeconfig points at its issued pair, the node identity.
    const conf = await compose(stack, ['exec', '-T', 'kubelet-1', 'cat', '/etc/kubernetes/kubelet.conf']);
    expect(conf).toContain('client-certificate: /var/lib/kubelet/pki/kubelet-client-current.pem');
    const subject = await compose(stack, [
      'exec',
      '-T',
      'kubelet-1',
      'node',
      '-e',
      "console.log(new (require('crypto').X509Certificate)(require('fs').readFileSync('/var/lib/kubelet/pki/kubelet-client-current.pem')).subject)",
    ]);
    expect(subject.trim().split('\n').sort()).toEqual(['CN=system:node:node-1', 'O=system:nodes']);

    // The README's check of kubeadm init's files, in the kubeadm-init image with its volumes.
    const expiration = await compose(stack, ['run', '--rm', 'kubeadm-init', 'kubeadm', 'certs', 'check-expiration']);
    expect(expiration).toMatch(/^CERTIFICATE {16}EXPIRES {18}RESIDUAL TIME {3}CERTIFICATE AUTHORITY {3}EXTERNALLY MANAGED\nadmin\.conf {17}\w{3} \d\d, \d{4} \d\d:\d\d UTC {3}36[45]d {12}ca {22}no/);
    expect(expiration).toMatch(/^ca {22}\w{3} \d\d, \d{4} \d\d:\d\d UTC {3}9y {14}no/m);
  });

  // ------------------------------------------------------------------ 2
  it("the seed's kube-system views: control-plane static pods with the node name, the kube-proxy and node-problem-detector DaemonSets on every node, the manifests on the node", async () => {
    const pods = await waitFor(
      'kube-system pods Running and ready',
      async () => {
        const items = (await kubectlJson<KubeList<Pod>>(stack, ['-n', 'kube-system', 'get', 'pods'])).items;
        // 4 static pods, 3 DaemonSets x 3 nodes, coredns' 2 replicas, metrics-server.
        return items.length === 16 && items.every((p) => p.status?.phase === 'Running' && isPodReady(p)) ? items : undefined;
      },
      { timeoutMs: 120_000, everyMs: 1_000 },
    );
    const byName = new Map(pods.map((p) => [p.metadata.name as string, p]));
    for (const c of ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler']) {
      const p = byName.get(`${c}-control-plane`);
      expect(p?.spec?.nodeName).toBe('control-plane');
      expect(p?.metadata.annotations?.['kubernetes.io/config.source']).toBe('file'); // a static pod's mirror
      expect(p?.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Node', name: 'control-plane' })]);
    }
    const proxies = pods.filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-proxy');
    expect(proxies.map((p) => p.spec?.nodeName).sort()).toEqual(['control-plane', 'node-1', 'node-2']);
    for (const p of proxies) expect(p.metadata.name).toMatch(/^kube-proxy-[a-z0-9]{5}$/);
    const detectors = pods.filter((p) => p.metadata.labels?.app === 'node-problem-detector');
    expect(detectors.map((p) => p.spec?.nodeName).sort()).toEqual(['control-plane', 'node-1', 'node-2']);
    for (const p of detectors) expect(p.metadata.name).toMatch(/^node-problem-detector-[a-z0-9]{5}$/);
    const policyAgents = pods.filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-network-policies');
    expect(policyAgents.map((p) => p.spec?.nodeName).sort()).toEqual(['control-plane', 'node-1', 'node-2']);

    // What the seed's commands print.
    const wide = await kubectl(stack, ['-n', 'kube-system', 'get', 'pods', '-o', 'wide']);
    for (const c of ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler']) {
      expect(wide).toMatch(new RegExp(`^${c}-control-plane\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+\\S+\\s+control-plane\\s`, 'm'));
    }
    const ds = await kubectl(stack, ['-n', 'kube-system', 'get', 'daemonsets']);
    expect(ds).toMatch(/^NAME\s+DESIRED\s+CURRENT\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+NODE SELECTOR\s+AGE$/m);
    expect(ds).toMatch(/^kube-proxy\s+3\s+3\s+3\s+3\s+3\s+kubernetes\.io\/os=linux\s+\S+$/m);
    expect(ds).toMatch(/^node-problem-detector\s+3\s+3\s+3\s+3\s+3\s+<none>\s+\S+$/m);
    expect((await compose(stack, ['exec', '-T', 'kubelet-control-plane', 'ls', '/etc/kubernetes/manifests'])).split('\n').filter(Boolean)).toEqual([
      'etcd.yaml',
      'kube-apiserver.yaml',
      'kube-controller-manager.yaml',
      'kube-scheduler.yaml',
    ]);
    // The stand-in says where the real process runs; workloads stay off the tainted node.
    expect(await kubectl(stack, ['-n', 'kube-system', 'logs', 'kube-scheduler-control-plane'])).toContain('kube-scheduler runs in a container of its own: the compose service "scheduler"');
  });

  // ------------------------------------------------------------------ 2b
  it("a shell on a node is the node's: ps aux shows its units' processes, systemctl, journalctl and crictl see them, NPD's conditions on its Node", async () => {
    // The seed's "Selbst nachsehen": the node's components beside each other in one process table.
    const ps = await onNode('node-1', 'ps aux');
    expect(ps.stdout.split('\n')[0]).toBe('USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND');
    for (const c of ['containerd', 'kubelet', 'kube-proxy', 'node-problem-detector']) expect(ps.stdout).toMatch(new RegExp(`^root +\\d+ .* /usr/bin/${c} /app/dist/main\\.js`, 'm'));

    const status = await onNode('node-1', 'systemctl status kubelet --no-pager');
    expect(status.code).toBe(0);
    const lines = status.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual(['● kubelet.service - kubelet: The Kubernetes Node Agent', '     Loaded: loaded (/usr/lib/systemd/system/kubelet.service; enabled; preset: enabled)']);
    expect(lines[2]).toMatch(/^     Active: active \(running\) since \w{3} \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC; .+ ago$/);
    expect(status.stdout).toMatch(/^             [├└]─\d+ \/usr\/bin\/kubelet /m);
    // The unit's journal: the kubelet's klog lines under its identifier and PID.
    expect(status.stdout).toMatch(/^\w{3} \d\d \d\d:\d\d:\d\d node-1 kubelet\[\d+\]: [IWE]\d{4} /m);
    const units = (await onNode('node-1', 'systemctl list-units --type=service --no-pager')).stdout;
    for (const u of ['containerd.service', 'kube-proxy.service', 'kubelet.service', 'node-problem-detector.service'])
      expect(units).toMatch(new RegExp(`^  ${u.replace('.', '\\.')} +loaded active running `, 'm'));

    // crictl over node-1's containerd socket: kube-proxy's DaemonSet pod runs there.
    const crictl = (await onNode('node-1', 'crictl ps')).stdout;
    expect(crictl.split('\n')[0]).toMatch(/^CONTAINER +IMAGE +CREATED +STATE +NAME +ATTEMPT +POD ID +POD +NAMESPACE$/);
    expect(crictl).toMatch(/^[0-9a-f]{13} +\S+ +.+ ago +Running +kube-proxy +0 +[0-9a-f]{13} +kube-proxy-[a-z0-9]{5} +kube-system$/m);
    // What the kubelet keeps, read-only in the node's shell.
    expect((await onNode('control-plane', 'ls /etc/kubernetes/manifests')).stdout.split('\n').filter(Boolean)).toEqual([
      'etcd.yaml',
      'kube-apiserver.yaml',
      'kube-controller-manager.yaml',
      'kube-scheduler.yaml',
    ]);
    expect((await onNode('node-1', 'ls /var/log/pods')).stdout).toMatch(/^kube-system_kube-proxy-[a-z0-9]{5}_[0-9a-f-]{36}$/m);

    // node-problem-detector-1 (ServiceAccount kube-system:node-problem-detector) set its default conditions on node-1.
    const conditions = await waitFor(
      "NPD's conditions on node-1",
      async () => {
        const cs = (await getNode('node-1')).status?.conditions ?? [];
        return cs.some((c) => c.type === 'KernelDeadlock') && cs.some((c) => c.type === 'ReadonlyFilesystem') ? cs : undefined;
      },
      { timeoutMs: 60_000, everyMs: 1_000 },
    );
    expect(conditions.find((c) => c.type === 'KernelDeadlock')).toMatchObject({ status: 'False', reason: 'KernelHasNoDeadlock', message: 'kernel has no deadlock' });
    expect(conditions.find((c) => c.type === 'ReadonlyFilesystem')).toMatchObject({ status: 'False', reason: 'FilesystemIsNotReadOnly', message: 'Filesystem is not read-only' });
  });

  // ------------------------------------------------------------------ 3
  it("the seed's probedemo pod restarts on its failing liveness probe, and the events say why", async () => {
    const manifest = PROBEDEMO_MANIFEST;
    await applyStdin(stack, manifest);
    // At TIME_SCALE=5 the seed's ~45 s take ~9 s.
    const pod = await waitFor(
      'probedemo restarted',
      async () => {
        const p = await kubectlJson<Pod>(stack, ['get', 'pod', 'probedemo']);
        return (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1 ? p : undefined;
      },
      { timeoutMs: 120_000, everyMs: 1_000 },
    );
    expect(pod.status?.containerStatuses?.[0]?.lastState?.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
    expect(await kubectl(stack, ['get', 'pod', 'probedemo'])).toMatch(/^probedemo\s+\d\/1\s+\S+\s+[1-9]\d*( \(.+ ago\))?\s+\S+$/m);

    const events = (await kubectlJson<KubeList<Event>>(stack, ['get', 'events', '--field-selector', 'involvedObject.name=probedemo'])).items;
    const unhealthy = events.find((e) => e.reason === 'Unhealthy');
    expect(unhealthy?.message).toMatch(/^Liveness probe failed: cat: (can't open '\/tmp\/healthy'|\/tmp\/healthy): No such file or directory/);
    expect(events.find((e) => e.reason === 'Killing')?.message).toBe('Container app failed liveness probe, will be restarted');
    const described = await kubectl(stack, ['describe', 'pod', 'probedemo']);
    expect(described).toMatch(/Warning\s+Unhealthy\s+.*Liveness probe failed/);
    await kubectl(stack, ['delete', 'pod', 'probedemo', '--wait=false']);
  });

  // ------------------------------------------------------------------ 4
  it('nginx deployment: 4 replicas over both nodes, a Service, ClusterIP traffic from inside node-1 reaches pods on both nodes', async () => {
    await kubectl(stack, ['create', 'deployment', 'web', '--image=nginx', '--replicas=4']);
    await kubectl(stack, ['expose', 'deployment', 'web', '--port=80']);
    const pods = await waitFor(
      '4 ready web pods',
      async () => {
        const items = (await podsOf('app=web')).filter((p) => !p.metadata.deletionTimestamp);
        return items.length === 4 && items.every(isPodReady) ? items : undefined;
      },
      { timeoutMs: 90_000, everyMs: 1_000 },
    );
    const byNode = (node: string) => pods.filter((p) => p.spec?.nodeName === node);
    expect(byNode('node-1').length).toBeGreaterThanOrEqual(1);
    expect(byNode('node-2').length).toBeGreaterThanOrEqual(1);

    const svc = await kubectlJson<Service>(stack, ['get', 'service', 'web']);
    const clusterIP: string = svc.spec!.clusterIP!;
    expect(clusterIP).toMatch(/^10\.(9[6-9]|1[01]\d)\.\d+\.\d+$/); // in 10.96.0.0/12

    // The seed's step 2: the DNAT chain kube-proxy wrote into node-1's kernel
    // (iptables-nft prints the protocol as a number with -n).
    const rules = await compose(stack, ['exec', '-T', 'node-1', 'iptables', '-t', 'nat', '-L', 'KUBE-SERVICES', '-n']);
    expect(rules).toMatch(new RegExp(`^KUBE-SVC-\\S+\\s+(tcp|6)\\s+--\\s+0\\.0\\.0\\.0/0\\s+${clusterIP.replace(/\./g, '\\.')}\\s+/\\* default/web cluster IP \\*/ tcp dpt:80`, 'm'));

    // Requests to the ClusterIP until the access logs of pods on both nodes show one.
    const marks = new Map<string, string>();
    const logsHave = async (pod: Pod, mark: string) => (await kubectl(stack, ['logs', pod.metadata.name!])).includes(`"GET /${mark} HTTP/1.1"`);
    await waitFor(
      'ClusterIP requests logged by pods on node-1 and node-2',
      async () => {
        const mark = `e2e-${marks.size}`;
        const answer = await httpFromNode(stack, 'node-1', `http://${clusterIP}/${mark}`);
        expect(answer).toMatch(/^404 .*nginx/); // nginx's own 404 for an unknown path
        for (const p of pods) if (!marks.has(p.spec!.nodeName!) && (await logsHave(p, mark))) marks.set(p.spec!.nodeName!, mark);
        return marks.size === 2 ? marks : undefined;
      },
      { timeoutMs: 60_000, everyMs: 100 },
    );
    expect([...marks.keys()].sort()).toEqual(['node-1', 'node-2']);
    expect(await httpFromNode(stack, 'node-1', `http://${clusterIP}/`)).toMatch(/^200 .*Welcome to nginx!/);

    // The apiserver is off the pod network: services/ and pods/proxy reach nginx through the pod's kubelet.
    expect(await kubectl(stack, ['get', '--raw', '/api/v1/namespaces/default/services/web:80/proxy/'])).toContain('<title>Welcome to nginx!</title>');
    expect(await kubectl(stack, ['get', '--raw', `/api/v1/namespaces/default/pods/${byNode('node-2')[0]!.metadata.name}/proxy/`])).toContain('<title>Welcome to nginx!</title>');
  });

  it('redis lab: a redis Deployment behind a Service; redis-cli in another pod reaches it through the ClusterIP with real packets', async () => {
    await kubectl(stack, ['create', 'deployment', 'redis', '--image=redis']);
    await kubectl(stack, ['expose', 'deployment', 'redis', '--port=6379']);
    await kubectl(stack, ['run', 'cli', '--image=redis:7.4']);
    await waitFor(
      'redis and cli pods ready',
      async () => {
        const items = [...(await podsOf('app=redis')), ...(await podsOf('run=cli'))].filter((p) => !p.metadata.deletionTimestamp);
        return items.length === 2 && items.every(isPodReady) ? items : undefined;
      },
      { timeoutMs: 120_000, everyMs: 1_000 },
    );
    expect(await kubectl(stack, ['logs', 'deployment/redis'])).toMatch(/^1:M .* \* Ready to accept connections tcp$/m);
    const ip = (await kubectlJson<Service>(stack, ['get', 'service', 'redis'])).spec!.clusterIP!;
    const cli = (...args: string[]) => kubectl(stack, ['exec', 'cli', '--', 'redis-cli', '-h', ip, ...args]);
    expect(await cli('SET', 'greeting', 'hello')).toBe('OK\n');
    expect(await cli('GET', 'greeting')).toBe('hello\n');
    expect(await cli('INCR', 'hits')).toBe('1\n');
    expect(await kubectl(stack, ['exec', 'cli', '--', 'redis-server', '--version'])).toMatch(/^Redis server v=7\.4\.1 /);
    await kubectl(stack, ['delete', 'pod', 'cli', '--wait=false']);

    // busybox's wget from a pod to the web Service of the test before: the page comes back through kube-proxy's rules.
    const web = (await kubectlJson<Service>(stack, ['get', 'service', 'web'])).spec!.clusterIP!;
    await kubectl(stack, ['run', 'fetch', '--image=busybox:1.28', '--restart=Never', '--', 'wget', '-qO-', `http://${web}/`]);
    await waitFor('fetch pod Succeeded', async () => (await kubectlJson<Pod>(stack, ['get', 'pod', 'fetch'])).status?.phase === 'Succeeded', { timeoutMs: 60_000, everyMs: 1_000 });
    expect(await kubectl(stack, ['logs', 'fetch'])).toContain('<h1>Welcome to nginx!</h1>');
    await kubectl(stack, ['delete', 'pod', 'fetch', '--wait=false']);
  });

  // ------------------------------------------------------------------ 5
  it("kubectl exec makes a web pod's readiness probe fail: it leaves the EndpointSlice and node-1's rules and gets no more ClusterIP traffic, without a restart", async () => {
    try {
      // Joins Service web (selector app=web); ready while /tmp/ready exists.
      await applyStdin(
        stack,
        `apiVersion: v1
kind: Pod
metadata:
  name: flaky
  labels: {app: web}
spec:
  containers:
    - name: nginx
      image: nginx
      command: ["sh", "-c", "touch /tmp/ready; exec nginx -g 'daemon off;'"]
      readinessProbe:
        exec: {command: ["cat", "/tmp/ready"]}
        periodSeconds: 1
`,
      );
      const svc = await kubectlJson<Service>(stack, ['get', 'service', 'web']);
      const clusterIP: string = svc.spec!.clusterIP!;
      const flaky = await waitFor(
        'flaky Ready',
        async () => {
          const p = await kubectlJson<Pod>(stack, ['get', 'pod', 'flaky']);
          return isPodReady(p) && p.status?.podIP ? p : undefined;
        },
        { timeoutMs: 60_000, everyMs: 1_000 },
      );
      const ip: string = flaky.status!.podIP!;
      const endpointOf = async () => {
        const slices = (await kubectlJson<KubeList<EndpointSlice>>(stack, ['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web'])).items;
        return slices.flatMap((s) => s.endpoints ?? []).find((e) => e.addresses.includes(ip));
      };
      const natRulesOfNode1 = () => compose(stack, ['exec', '-T', 'node-1', 'iptables-save', '-t', 'nat']);
      const flakyLogged = async (mark: string) => (await kubectl(stack, ['logs', 'flaky'])).includes(`"GET /${mark} HTTP/1.1"`);

      // While ready: an endpoint, a DNAT rule in node-1 and ClusterIP traffic.
      await waitFor('flaky ready in the EndpointSlice', async () => ((await endpointOf())?.conditions?.ready === true ? true : undefined), { timeoutMs: 30_000, everyMs: 1_000 });
      await waitFor(`node-1 DNAT to ${ip}`, async () => ((await natRulesOfNode1()).includes(`--to-destination ${ip}:80`) ? true : undefined), { timeoutMs: 30_000, everyMs: 1_000 });
      let n = 0;
      await waitFor(
        'a ClusterIP request served by flaky',
        async () => {
          const mark = `ready-${n++}`;
          expect(await httpFromNode(stack, 'node-1', `http://${clusterIP}/${mark}`)).toMatch(/^404 .*nginx/);
          return (await flakyLogged(mark)) ? true : undefined;
        },
        // kube-proxy picks one of the Service's endpoints at random and each try is two execs (~2-3 s): enough tries that flaky's turn comes.
        { timeoutMs: 120_000, everyMs: 100 },
      );

      // The Service existed before the pod: its variables are in the container's environment.
      expect(await kubectl(stack, ['exec', 'flaky', '--', 'sh', '-c', 'echo $WEB_SERVICE_HOST:$WEB_SERVICE_PORT $KUBERNETES_SERVICE_HOST'])).toBe(`${clusterIP}:80 10.96.0.1\n`);

      // The probe fails: not ready, no restart, the reason in the events.
      expect(await kubectl(stack, ['exec', 'flaky', '--', 'sh', '-c', 'rm /tmp/ready && echo removed'])).toBe('removed\n');
      const unready = await waitFor(
        'flaky not ready',
        async () => {
          const p = await kubectlJson<Pod>(stack, ['get', 'pod', 'flaky']);
          return p.status?.containerStatuses?.[0]?.ready === false ? p : undefined;
        },
        { timeoutMs: 90_000, everyMs: 1_000 },
      );
      expect(unready.status?.phase).toBe('Running');
      expect(unready.status?.containerStatuses?.[0]?.restartCount).toBe(0);
      expect(unready.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady' });
      expect(await kubectl(stack, ['get', 'pod', 'flaky'])).toMatch(/^flaky\s+0\/1\s+Running\s+0\s+\S+$/m);
      expect(await kubectl(stack, ['describe', 'pod', 'flaky'])).toMatch(/Warning\s+Unhealthy\s+.*kubelet\s+Readiness probe failed: cat: \/tmp\/ready: No such file or directory/);

      // The endpoint stays listed but not ready; kube-proxy drops its DNAT.
      await waitFor('flaky not ready in the EndpointSlice', async () => ((await endpointOf())?.conditions?.ready === false ? true : undefined), { timeoutMs: 30_000, everyMs: 1_000 });
      await waitFor(`no DNAT to ${ip} in node-1`, async () => ((await natRulesOfNode1()).includes(`${ip}:80`) ? undefined : true), { timeoutMs: 30_000, everyMs: 1_000 });
      const answers: string[] = [];
      for (let i = 0; i < 20; i++) answers.push(await httpFromNode(stack, 'node-1', `http://${clusterIP}/unready-${i}`));
      for (const a of answers) expect(a).toMatch(/^404 .*nginx/); // every request still answered by the other pods
      const flakyLog = await kubectl(stack, ['logs', 'flaky']);
      expect(flakyLog).not.toMatch(/"GET \/unready-\d+ HTTP\/1\.1"/);
    } finally {
      // Gone before the next scenarios count the web pods.
      await kubectl(stack, ['delete', 'pod', 'flaky', '--grace-period=1', '--ignore-not-found']);
    }
  });

  // ------------------------------------------------------------------ 6
  it('CRI calls kubelet-1 makes to containerd-1 for a new pod show up in `pnpm kubelab trace --json` in order', async () => {
    const trace = startTrace(kubeconfigDir);
    try {
      // The subscription is live once the kubelet's relist calls arrive.
      await trace.next((r) => r.method === 'ListPodSandbox', 30_000);
      await applyStdin(
        stack,
        `apiVersion: v1
kind: Pod
metadata:
  name: trace-demo
spec:
  nodeSelector:
    kubernetes.io/hostname: node-1
  containers:
    - name: main
      image: alpine:3.20
      imagePullPolicy: Always
      command: ["sleep", "3600"]
`,
      );
      const seen: string[] = [];
      await trace.next((r) => {
        const ours = r.pod === 'trace-demo' || (r.method === 'PullImage' && JSON.stringify(r.request ?? {}).includes('alpine:3.20'));
        if (ours && ['RunPodSandbox', 'PullImage', 'CreateContainer', 'StartContainer'].includes(r.method)) seen.push(r.method);
        return ours && r.method === 'StartContainer';
      }, 60_000);
      expect(seen).toEqual(['RunPodSandbox', 'PullImage', 'CreateContainer', 'StartContainer']);
    } finally {
      trace.stop();
    }
    await kubectl(stack, ['delete', 'pod', 'trace-demo', '--wait=false']);
  });

  it('cluster DNS: two coredns pods Running and Ready, kube-dns at 10.96.0.10, real DNS packets from node-1 answer the kubernetes Service and NXDOMAIN', async () => {
    const pods = await waitFor(
      'coredns pods Running and Ready',
      async () => {
        const items = (await kubectlJson<KubeList<Pod>>(stack, ['-n', 'kube-system', 'get', 'pods', '-l', 'k8s-app=kube-dns'])).items;
        return items.length === 2 && items.every((p) => p.status?.phase === 'Running' && isPodReady(p)) ? items : undefined;
      },
      { timeoutMs: 120_000, everyMs: 1_000 },
    );
    for (const p of pods) expect(p.metadata.name).toMatch(/^coredns-[a-z0-9]+-[a-z0-9]{5}$/);
    const svc = await kubectl(stack, ['-n', 'kube-system', 'get', 'svc', 'kube-dns']);
    expect(svc).toMatch(/^kube-dns\s+ClusterIP\s+10\.96\.0\.10\s+<none>\s+53\/UDP,53\/TCP,9153\/TCP\s/m);
    expect(await kubectl(stack, ['-n', 'kube-system', 'logs', pods[0]!.metadata.name!])).toContain('CoreDNS-1.11.3');

    // One UDP query from node-1's network namespace to the ClusterIP (kube-proxy's rules DNAT it to a coredns pod); the reply comes back as hex.
    const ask = async (name: string) => {
      const query = dnsPacket.encode({ type: 'query', id: 4711, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'A', name }] }).toString('hex');
      const script = `const s=require('dgram').createSocket('udp4');const t=setTimeout(()=>{console.log('timeout');process.exit(1)},5000);s.on('message',(m)=>{clearTimeout(t);console.log(m.toString('hex'));s.close()});s.send(Buffer.from('${query}','hex'),53,'10.96.0.10')`;
      const out = (await compose(stack, ['exec', '-T', 'node-1', 'node', '-e', script])).trim();
      return dnsPacket.decode(Buffer.from(out, 'hex')) as ReturnType<typeof dnsPacket.decode> & { rcode?: string };
    };
    const a = await waitFor('an answer from 10.96.0.10', () => ask('kubernetes.default.svc.cluster.local').catch(() => undefined), { timeoutMs: 30_000, everyMs: 1_000 });
    expect(a.rcode).toBe('NOERROR');
    expect(a.answers).toEqual([expect.objectContaining({ name: 'kubernetes.default.svc.cluster.local', type: 'A', ttl: expect.any(Number), data: '10.96.0.1' })]);
    const nx = await ask('does-not-exist.default.svc.cluster.local');
    expect(nx.rcode).toBe('NXDOMAIN');
    expect(nx.authorities?.[0]).toMatchObject({ type: 'SOA', name: 'cluster.local' });
  });

  // Services from outside the cluster (issue 19): a NodePort on every node's address and, through host-ports, on the host's 127.0.0.1.
  const hostHttp = async (url: string, method = 'GET') => {
    try {
      const r = await fetch(url, { method, signal: AbortSignal.timeout(3000) });
      return `${r.status} ${r.headers.get('server') ?? ''} ${(await r.text()).slice(0, 200).replace(/\s+/g, ' ')}`.trim();
    } catch (err) {
      return `ERR ${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name}`;
    }
  };
  const nodeIP = async (name: string) => (await getNode(name)).status!.addresses!.find((a) => a.type === 'InternalIP')!.address;

  it('a NodePort Service (nodePort 30080) answers on every node address from node-2, and on the host as http://127.0.0.1:30080', async () => {
    await applyStdin(
      stack,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web-np' },
        spec: { type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 80, targetPort: 80, nodePort: 30080 }] },
      }),
    );
    expect(await kubectl(stack, ['get', 'service', 'web-np'])).toMatch(/^web-np\s+NodePort\s+10\.\S+\s+<none>\s+80:30080\/TCP\s+\S+$/m);
    for (const node of ['control-plane', 'node-1', 'node-2']) {
      const ip = await nodeIP(node);
      const answer = await waitFor(
        `nodePort 30080 on ${node} (${ip}) from node-2`,
        async () => {
          const a = await httpFromNode(stack, 'node-2', `http://${ip}:30080/`);
          return a.startsWith('200 ') ? a : undefined;
        },
        { timeoutMs: 30_000, everyMs: 500 },
      );
      expect(answer).toMatch(/^200 .*Welcome to nginx!/);
    }
    // From the host: the published range on 127.0.0.1 only (curl -I, then nginx's own 404 for an unknown path).
    const head = await waitFor(
      '127.0.0.1:30080 from the host',
      async () => {
        const a = await hostHttp('http://127.0.0.1:30080/', 'HEAD');
        return a.startsWith('200 ') ? a : undefined;
      },
      { timeoutMs: 30_000, everyMs: 500 },
    );
    expect(head).toMatch(/^200 nginx/);
    expect(await hostHttp('http://127.0.0.1:30080/no-such-page')).toMatch(/^404 nginx.*Not Found/);
    const published = await compose(stack, ['port', 'host-ports', '30080']);
    expect(published.trim()).toBe('127.0.0.1:30080');
    await kubectl(stack, ['delete', 'service', 'web-np']);
  });

  it('a LoadBalancer Service gets an EXTERNAL-IP with upstream events, answers on it from the nodes and on a 127.0.0.1 port host-ports names; deleted, it lets go', async () => {
    await applyStdin(
      stack,
      JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web-lb' }, spec: { type: 'LoadBalancer', selector: { app: 'web' }, ports: [{ port: 8080, targetPort: 80 }] } }),
    );
    const row = await waitFor(
      'web-lb EXTERNAL-IP',
      async () => {
        const out = await kubectl(stack, ['get', 'service', 'web-lb']);
        return /<pending>/.test(out) ? undefined : out;
      },
      { timeoutMs: 30_000, everyMs: 500 },
    );
    const m = /^web-lb\s+LoadBalancer\s+10\.\S+\s+(10\.250\.0\.\d+)\s+8080:(3\d{4})\/TCP\s+\S+$/m.exec(row);
    expect(m, row).not.toBeNull();
    const externalIP = m![1]!;
    const nodePort = m![2]!;
    const svc = await kubectlJson<Service>(stack, ['get', 'service', 'web-lb']);
    expect(svc.metadata.finalizers).toEqual(['service.kubernetes.io/load-balancer-cleanup']);
    expect(svc.status?.loadBalancer?.ingress).toEqual([{ ip: externalIP, ipMode: 'VIP' }]);
    const events = await kubectl(stack, ['get', 'events', '--field-selector', 'involvedObject.name=web-lb']);
    expect(events).toMatch(/Normal\s+EnsuringLoadBalancer\s+service\/web-lb\s+Ensuring load balancer/);
    expect(events).toMatch(/Normal\s+EnsuredLoadBalancer\s+service\/web-lb\s+Ensured load balancer/);

    // From the nodes: kube-proxy captures the ingress address (the nodes route the load-balancer range).
    for (const node of ['node-1', 'node-2']) {
      const answer = await waitFor(
        `${externalIP}:8080 from ${node}`,
        async () => {
          const a = await httpFromNode(stack, node, `http://${externalIP}:8080/`);
          return a.startsWith('200 ') ? a : undefined;
        },
        { timeoutMs: 30_000, everyMs: 500 },
      );
      expect(answer).toMatch(/^200 .*Welcome to nginx!/);
    }

    // From the host: host-ports logs the 127.0.0.1 port it gave the load balancer's port.
    const hostPort = await waitFor(
      'host-ports mapping for web-lb',
      async () => {
        const logs = await compose(stack, ['logs', '--no-color', 'host-ports']);
        const mapped = new RegExp(`mapped service=default/web-lb port=8080/TCP ingress=${externalIP.replace(/\./g, '\\.')} host=127\\.0\\.0\\.1:(\\d+) via=node-1:${nodePort}`).exec(logs);
        return mapped?.[1];
      },
      { timeoutMs: 30_000, everyMs: 500 },
    );
    expect(Number(hostPort)).toBeGreaterThanOrEqual(30090);
    expect(Number(hostPort)).toBeLessThanOrEqual(30099);
    expect(await hostHttp(`http://127.0.0.1:${hostPort}/`)).toMatch(/^200 nginx\/\S+ .*Welcome to nginx!/);

    // externalTrafficPolicy Local: the apiserver allocates a healthCheckNodePort, kube-proxy answers it per node.
    await kubectl(stack, ['patch', 'service', 'web-lb', '-p', '{"spec":{"externalTrafficPolicy":"Local"}}']);
    const hc = (await kubectlJson<Service>(stack, ['get', 'service', 'web-lb'])).spec!.healthCheckNodePort!;
    expect(hc).toBeGreaterThanOrEqual(30000);
    expect(await kubectl(stack, ['describe', 'service', 'web-lb'])).toMatch(new RegExp(`HealthCheck NodePort:\\s+${hc}`));
    const health = await waitFor(
      'the health check node port on node-2',
      async () => {
        const a = await httpFromNode(stack, 'node-2', `http://127.0.0.1:${hc}/`);
        return a.startsWith('200 ') ? a : undefined;
      },
      { timeoutMs: 30_000, everyMs: 500 },
    );
    expect(health).toMatch(/^200 \{ "service": \{ "namespace": "default", "name": "web-lb" \}, "localEndpoints": [1-9]\d*, "serviceProxyHealthy": true \}$/);

    await kubectl(stack, ['delete', 'service', 'web-lb', '--timeout=30s']);
    expect(await kubectl(stack, ['get', 'service', 'web-lb', '--ignore-not-found'])).toBe('');
    expect(await kubectl(stack, ['get', 'events', '--field-selector', 'involvedObject.name=web-lb'])).toMatch(/Normal\s+DeletedLoadBalancer\s+service\/web-lb\s+Deleted load balancer/);
    await waitFor(
      'host-ports unmaps web-lb',
      async () => (await compose(stack, ['logs', '--no-color', 'host-ports'])).includes(`unmapped service=default/web-lb host=127.0.0.1:${hostPort}`) || undefined,
      { timeoutMs: 30_000, everyMs: 500 },
    );
  });

  it('metrics-server as kubeadm clusters run it: its kube-system pod on control-plane, APIService v1beta1.metrics.k8s.io Available, `kubectl top nodes` lists every node', async () => {
    const pod = await waitFor(
      'the metrics-server pod Running and ready',
      async () => {
        const items = (await kubectlJson<KubeList<Pod>>(stack, ['-n', 'kube-system', 'get', 'pods', '-l', 'k8s-app=metrics-server'])).items;
        return items.length === 1 && items[0]!.status?.phase === 'Running' && isPodReady(items[0]!) ? items[0]! : undefined;
      },
      { timeoutMs: 120_000, everyMs: 2_000 },
    );
    expect(pod.spec?.nodeName).toBe('control-plane');
    expect(await kubectl(stack, ['-n', 'kube-system', 'logs', pod.metadata.name as string])).toContain('metrics-server runs in a container of its own: the compose service "metrics-server"');
    // Two scrapes of every kubelet (--metric-resolution=15s) make a rate; the APIService turns Available once the endpoint answers.
    const top = await waitFor(
      'kubectl top nodes with every node',
      async () => {
        const out = await kubectl(stack, ['top', 'nodes']).catch(() => '');
        return ['control-plane', 'node-1', 'node-2'].every((n) => new RegExp(`^${n}\\s+\\d+m\\s+\\d+%\\s+\\d+Mi\\s+\\d+%\\s*$`, 'm').test(out)) ? out : undefined;
      },
      { timeoutMs: 150_000, everyMs: 5_000 },
    );
    expect(top).toMatch(/^NAME\s+CPU\(cores\)\s+CPU(%|\(%\))\s+MEMORY\(bytes\)\s+MEMORY(%|\(%\))\s*$/m);
    expect(await kubectl(stack, ['get', 'apiservice', 'v1beta1.metrics.k8s.io'])).toMatch(/^v1beta1\.metrics\.k8s\.io\s+kube-system\/metrics-server\s+True\s+\S+$/m);
  });

  // NetworkPolicy lab (issue 19), with real packets through kube-network-policies-N's chains, in a namespace of its own.
  it('NetworkPolicy lab: wget to a ClusterIP works, times out after a default-deny ingress policy, an allow for app=client lets only that pod in, deleting the policies restores it', async () => {
    const ns = 'netpol-lab';
    const k = (args: string[], opts: { allowFail?: boolean } = {}) => kubectl(stack, ['-n', ns, ...args], opts);
    await kubectl(stack, ['create', 'namespace', ns]);
    try {
      await k(['create', 'deployment', 'web', '--image=nginx']);
      await k(['expose', 'deployment', 'web', '--port=80']);
      await k(['run', 'client', '--image=busybox:1.28', '--labels=app=client', '--', 'sleep', '3600']);
      await k(['run', 'other', '--image=busybox:1.28', '--labels=app=other', '--', 'sleep', '3600']);
      await waitFor(
        'web, client and other ready',
        async () => {
          const items = (await kubectlJson<KubeList<Pod>>(stack, ['-n', ns, 'get', 'pods'])).items.filter((p) => !p.metadata.deletionTimestamp);
          return items.length === 3 && items.every(isPodReady) ? items : undefined;
        },
        { timeoutMs: 120_000, everyMs: 1_000 },
      );
      // The Service's ClusterIP, not its name: kube-proxy's DNAT happens before the policy chains, which see the pod IPs.
      const ip = (await kubectlJson<Service>(stack, ['-n', ns, 'get', 'service', 'web'])).spec!.clusterIP!;
      const wget = (pod: string) => k(['exec', pod, '--', 'wget', '-qO-', '--timeout=2', `http://${ip}`], { allowFail: true });
      expect(await wget('client')).toContain('<h1>Welcome to nginx!</h1>');
      expect(await wget('other')).toContain('<h1>Welcome to nginx!</h1>');

      await applyStdin(stack, `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: default-deny, namespace: ${ns}}\nspec:\n  podSelector: {}\n  policyTypes: [Ingress]\n`);
      expect(
        (await k(['get', 'networkpolicy']))
          .trim()
          .split('\n')
          .map((l) => l.trim().split(/\s+/).join(' ')),
      ).toEqual(['NAME POD-SELECTOR AGE', expect.stringMatching(/^default-deny <none> \d+s$/)]);
      // The agents apply within a sync; the dropped SYN makes wget give up as in the classic lab.
      await waitFor('wget from client times out', async () => ((await wget('client')).includes('wget: download timed out') ? true : undefined), { timeoutMs: 30_000, everyMs: 1_000 });
      expect(await wget('other')).toContain('wget: download timed out');

      await applyStdin(
        stack,
        `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: allow-client, namespace: ${ns}}\nspec:\n  podSelector: {matchLabels: {app: web}}\n  ingress:\n  - from:\n    - podSelector: {matchLabels: {app: client}}\n`,
      );
      await waitFor('client gets in', async () => ((await wget('client')).includes('<h1>Welcome to nginx!</h1>') ? true : undefined), { timeoutMs: 30_000, everyMs: 1_000 });
      expect(await wget('other')).toContain('wget: download timed out');
      // The web pod's node holds the chains: a DROP for the web pod, an ACCEPT for client's address.
      const web = (await kubectlJson<KubeList<Pod>>(stack, ['-n', ns, 'get', 'pods', '-l', 'app=web'])).items[0]!;
      const clientIp = (await kubectlJson<Pod>(stack, ['-n', ns, 'get', 'pod', 'client'])).status!.podIP!;
      const saved = await compose(stack, ['exec', '-T', web.spec!.nodeName!, 'iptables-save', '-t', 'filter']);
      expect(saved).toContain(`-A KUBE-NWPLCY-INGRESS -d ${web.status!.podIP!}/32 -m comment --comment "${ns}/${web.metadata.name!} ingress" -j KUBE-NWPLCY-`);
      expect(saved).toContain(`-s ${clientIp}/32 -j ACCEPT`);
      expect(saved).toContain(`-m comment --comment "${ns}/${web.metadata.name!} has no NetworkPolicy allowing this ingress" -j DROP`);

      await k(['delete', 'networkpolicy', 'default-deny', 'allow-client']);
      await waitFor('other gets in again', async () => ((await wget('other')).includes('<h1>Welcome to nginx!</h1>') ? true : undefined), { timeoutMs: 30_000, everyMs: 1_000 });
      expect(await wget('client')).toContain('<h1>Welcome to nginx!</h1>');
    } finally {
      await kubectl(stack, ['delete', 'namespace', ns, '--timeout=120s'], { allowFail: true });
    }
  });

  // ------------------------------------------------------------------ 7
  let keeperBefore: { containerID: string; startedAt: string };
  let node2WebPods: Pod[] = [];

  it('cluster DNS from pods (real packets): resolv.conf per ClusterFirst, the managed /etc/hosts, Service variables, Services and a headless Service by name, NXDOMAIN, wget by name', async () => {
    const web = (await kubectlJson<Service>(stack, ['get', 'service', 'web'])).spec!.clusterIP!;
    try {
      // A headless Service over the web pods: DNS answers their pod IPs.
      await applyStdin(
        stack,
        `apiVersion: v1
kind: Service
metadata:
  name: web-headless
spec:
  clusterIP: None
  selector: {app: web}
  ports: [{port: 80}]
`,
      );
      await kubectl(stack, ['run', 'dns-client', '--image=busybox:1.36', '--restart=Never', '--', 'sleep', '3600']);
      await applyStdin(
        stack,
        `apiVersion: v1
kind: Pod
metadata:
  name: dnsutils
spec:
  containers:
    - name: dnsutils
      image: registry.k8s.io/e2e-test-images/jessie-dnsutils:1.3
      command: ["sleep", "3600"]
`,
      );
      for (const name of ['dns-client', 'dnsutils']) {
        await waitFor(`${name} Running`, async () => (await kubectlJson<Pod>(stack, ['get', 'pod', name])).status?.phase === 'Running', { timeoutMs: 60_000, everyMs: 1_000 });
      }
      const exec = (pod: string, ...args: string[]) => kubectl(stack, ['exec', pod, '--', ...args]);
      const podIP = (await kubectlJson<Pod>(stack, ['get', 'pod', 'dns-client'])).status!.podIP!;

      // The kubelet's ClusterFirst configuration as containerd writes it (the node's own search domains may follow).
      expect(await exec('dns-client', 'cat', '/etc/resolv.conf')).toMatch(
        /^search default\.svc\.cluster\.local svc\.cluster\.local cluster\.local( \S+)*\nnameserver 10\.96\.0\.10\noptions ndots:5\n$/,
      );
      const hosts = await exec('dns-client', 'cat', '/etc/hosts');
      expect(hosts).toMatch(/^# Kubernetes-managed hosts file\.\n127\.0\.0\.1\tlocalhost\n/);
      expect(hosts).toContain(`${podIP}\tdns-client\n`);
      const env = await exec('dns-client', 'env');
      expect(env).toContain('KUBERNETES_SERVICE_HOST=10.96.0.1\n');
      expect(env).toContain(`WEB_SERVICE_HOST=${web}\n`);
      expect(env).toContain(`WEB_PORT_80_TCP=tcp://${web}:80\n`);

      // busybox 1.36 asks a dotted name as it is, a dotless one with each search domain.
      expect(await exec('dns-client', 'nslookup', 'kubernetes.default.svc.cluster.local')).toContain(
        'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n',
      );
      expect(await exec('dns-client', 'nslookup', 'web')).toContain(`Name:\tweb.default.svc.cluster.local\nAddress: ${web}\n`);
      expect(await exec('dns-client', 'nslookup', 'nosuch')).toContain("** server can't find nosuch.default.svc.cluster.local: NXDOMAIN\n");
      const webPodIPs = (await kubectlJson<KubeList<Pod>>(stack, ['get', 'pods', '-l', 'app=web'])).items.filter((p) => p.status?.podIP && p.status.phase === 'Running').map((p) => p.status!.podIP!);
      await waitFor(
        'web-headless answers every web pod IP',
        async () => {
          const out = await exec('dns-client', 'nslookup', '-type=a', 'web-headless');
          const got = [...out.matchAll(/^Address: (\S+)$/gm)].map((m) => m[1]).sort();
          return JSON.stringify(got) === JSON.stringify([...webPodIPs].sort()) ? true : undefined;
        },
        { timeoutMs: 30_000, everyMs: 1_000 },
      );
      // wget by the Service's name: the resolver asks 10.96.0.10, kube-proxy's rules carry both the query and the request.
      expect(await exec('dns-client', 'wget', '-qO-', 'http://web')).toContain('<h1>Welcome to nginx!</h1>');

      // The docs' "Debugging DNS Resolution" check, with bind's nslookup.
      expect(await exec('dnsutils', 'nslookup', 'kubernetes.default')).toBe('Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n');
      expect(await exec('dnsutils', 'getent', 'hosts', 'web')).toBe(`${web.padEnd(15)} web.default.svc.cluster.local\n`);
    } finally {
      await kubectl(stack, ['delete', 'pod', 'dns-client', 'dnsutils', '--grace-period=1', '--ignore-not-found', '--wait=false']);
      await kubectl(stack, ['delete', 'service', 'web-headless', '--ignore-not-found']);
    }
  });

  // Priorities (issue 18): a pod of a higher PriorityClass that fits nowhere preempts a lower one, with the scheduler's nomination and upstream's event.
  it('preemption: a high-priority pod that fits nowhere evicts a lower-priority pod on node-2 (Preempted event, NOMINATED NODE) and runs there', async () => {
    const ns = 'preempt-lab';
    const k = (args: string[], opts: { allowFail?: boolean } = {}) => kubectl(stack, ['-n', ns, ...args], opts);
    await kubectl(stack, ['create', 'namespace', ns]);
    await kubectl(stack, ['create', 'priorityclass', 'lab-high', '--value=1000000']);
    // What is left of node-2's CPU: allocatable minus the requests of every pod bound there that has not ended.
    const node2 = await getNode('node-2');
    const bound = (await kubectlJson<KubeList<Pod>>(stack, ['get', 'pods', '-A', '--field-selector', 'spec.nodeName=node-2'])).items;
    const requested = bound
      .filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed')
      .flatMap((p) => p.spec?.containers ?? [])
      .reduce((sum, c) => sum + (c.resources?.requests?.cpu ? parseQuantity(String(c.resources.requests.cpu)).milliValue() : 0), 0);
    const free = parseQuantity(String(node2.status?.allocatable?.cpu)).milliValue() - requested;
    expect(free).toBeGreaterThan(100);
    const pod = (name: string, cls?: string) =>
      `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}, namespace: ${ns}}\nspec:\n${cls ? `  priorityClassName: ${cls}\n` : ''}` +
      `  nodeSelector: {kubernetes.io/hostname: node-2}\n  terminationGracePeriodSeconds: 1\n` +
      `  containers: [{name: c, image: busybox, command: [sleep, "100000"], resources: {requests: {cpu: ${free}m}}}]\n`;
    await applyStdin(stack, pod('low'));
    const readyIn = (name: string, timeoutMs: number) =>
      waitFor(
        `pod ${ns}/${name} Ready`,
        async () => {
          const p = await kubectlJson<Pod>(stack, ['-n', ns, 'get', 'pod', name]);
          return isPodReady(p) ? p : undefined;
        },
        { timeoutMs, everyMs: 1_000 },
      );
    await readyIn('low', 90_000);
    await applyStdin(stack, pod('vip', 'lab-high'));
    const vipUid = (await kubectlJson<Pod>(stack, ['-n', ns, 'get', 'pod', 'vip'])).metadata.uid;
    const preempted = await waitFor(
      'the Preempted event on the low-priority pod',
      async () => (await kubectlJson<KubeList<Event>>(stack, ['-n', ns, 'get', 'events', '--field-selector', 'reason=Preempted,involvedObject.name=low'])).items[0],
      { timeoutMs: 60_000, everyMs: 1_000 },
    );
    expect(preempted.message).toBe(`Preempted by pod ${vipUid} on node node-2`);
    expect(preempted.source?.component ?? preempted.reportingComponent).toBe('default-scheduler');
    const vip = await readyIn('vip', 120_000);
    expect(vip.spec?.nodeName).toBe('node-2');
    expect(vip.status?.nominatedNodeName).toBe('node-2');
    expect(await k(['get', 'pod', 'vip', '-o', 'wide'])).toMatch(/^vip\s+1\/1\s+Running\s+0\s+\S+\s+\S+\s+node-2\s+node-2\s+<none>\s*$/m);
    await waitFor('the preempted pod gone', async () => !(await k(['get', 'pods', '-o', 'name'])).includes('pod/low'), { timeoutMs: 60_000, everyMs: 1_000 });
    await kubectl(stack, ['delete', 'namespace', ns, '--wait=false']);
    await kubectl(stack, ['delete', 'priorityclass', 'lab-high']);
  });

  it('the userland lab: a redis Deployment + Service, redis-cli SET then GET by the Service name, a busybox nc exchange, ash texts in busybox', async () => {
    const ns = 'userland-lab';
    const k = (args: string[], opts: { allowFail?: boolean } = {}) => kubectl(stack, ['-n', ns, ...args], opts);
    try {
      await kubectl(stack, ['create', 'namespace', ns]);
      await applyStdin(
        stack,
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: redis, namespace: ${ns}}
spec:
  replicas: 1
  selector: {matchLabels: {app: redis}}
  template:
    metadata: {labels: {app: redis}}
    spec:
      containers: [{name: redis, image: redis:7.4, ports: [{containerPort: 6379}]}]
---
apiVersion: v1
kind: Service
metadata: {name: redis, namespace: ${ns}}
spec:
  selector: {app: redis}
  ports: [{port: 6379}]
---
apiVersion: v1
kind: Pod
metadata: {name: cli, namespace: ${ns}}
spec:
  containers: [{name: cli, image: redis:7.4, command: [sleep, "3600"]}]
---
apiVersion: v1
kind: Pod
metadata: {name: box, namespace: ${ns}}
spec:
  containers: [{name: box, image: busybox:1.36, command: [sleep, "3600"]}]
`,
      );
      await k(['rollout', 'status', 'deployment/redis', '--timeout=120s']);
      for (const name of ['cli', 'box']) {
        await waitFor(`${name} Running`, async () => (await kubectlJson<Pod>(stack, ['-n', ns, 'get', 'pod', name])).status?.phase === 'Running', { timeoutMs: 90_000, everyMs: 1_000 });
      }
      // redis-cli (the redis image has it; busybox has none) reaches the server by the Service's DNS name once its endpoints are programmed.
      await waitFor('redis PONG by the Service name', async () => ((await k(['exec', 'cli', '--', 'redis-cli', '-h', 'redis', 'PING'], { allowFail: true })) === 'PONG\n' ? true : undefined), {
        timeoutMs: 60_000,
        everyMs: 1_000,
      });
      expect(await k(['exec', 'cli', '--', 'redis-cli', '-h', 'redis', 'SET', 'k', 'v'])).toBe('OK\n');
      expect(await k(['exec', 'cli', '--', 'redis-cli', '-h', 'redis', 'GET', 'k'])).toBe('v\n');
      // busybox nc speaks RESP to the same Service: the raw reply, then -w 1 ends the exchange.
      expect(await k(['exec', 'box', '--', 'sh', '-c', "printf '*2\\r\\n$3\\r\\nGET\\r\\n$1\\r\\nk\\r\\n' | nc -w 1 redis 6379"])).toBe('$1\r\nv\r\n');
      // The busybox shell is ash: its own texts, $0 is sh, no bash in /bin.
      expect(await k(['exec', 'box', '--', 'sh', '-c', 'foo'], { allowFail: true })).toBe('sh: foo: not found\ncommand terminated with exit code 127\n');
      expect(await k(['exec', 'box', '--', 'sh', '-c', 'echo $0; ls /bin | grep -c "^bash$"'], { allowFail: true })).toBe('sh\n0\ncommand terminated with exit code 1\n');
    } finally {
      await kubectl(stack, ['delete', 'namespace', ns, '--wait=false'], { allowFail: true });
    }
  });

  it("kubelab fault --compose in node-2: oom-kill (OOMKilled, exit 137, the kernel's line in dmesg, OOMKilling) and node-partition (Unknown, unreachable taint; cleared: Ready)", async () => {
    // `pnpm kubelab fault NODE FAULT --compose`: node-fault in the node container, through this stack's project.
    const fault = (...args: string[]) => {
      const r = spawnSync(process.execPath, [join(REPO_ROOT, 'packages/kubelab/dist/main.js'), 'fault', ...args, '--compose'], {
        cwd: REPO_ROOT,
        env: { ...stack.env, COMPOSE_PROJECT_NAME: stack.project },
        encoding: 'utf8',
        timeout: 120_000,
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    await applyStdin(
      stack,
      `apiVersion: v1
kind: Pod
metadata:
  name: oomhog
spec:
  nodeSelector:
    kubernetes.io/hostname: node-2
  containers:
    - name: main
      image: busybox:1.37
      command: ["sleep", "100000"]
`,
    );
    await readyPod('oomhog running', 'oomhog', 60_000);
    const oom = fault('node-2', 'oom-kill', '--pod', 'oomhog');
    expect(oom.code, oom.stderr).toBe(0);
    expect(oom.stdout).toMatch(/^node-2: crictl update --memory 4096 [0-9a-f]{13} \(default\/oomhog container main\)$/m);
    const terminated = await waitFor('oomhog OOMKilled', async () => (await kubectlJson<Pod>(stack, ['get', 'pod', 'oomhog'])).status?.containerStatuses?.[0]?.lastState?.terminated, {
      timeoutMs: 60_000,
      everyMs: 1_000,
    });
    expect(terminated).toMatchObject({ reason: 'OOMKilled', exitCode: 137 });
    expect((await onNode('node-2', 'dmesg')).stdout).toMatch(/Memory cgroup out of memory: Killed process 1 \(sleep\) total-vm:\d+kB, anon-rss:\d+kB, file-rss:0kB, shmem-rss:0kB/);
    const oomEvent = await waitFor(
      'OOMKilling on node-2',
      async () => (await kubectlJson<KubeList<Event>>(stack, ['get', 'events', '--field-selector', 'reason=OOMKilling,involvedObject.name=node-2'])).items[0],
      { timeoutMs: 60_000, everyMs: 1_000 },
    );
    expect(oomEvent.message).toMatch(/Killed process 1 \(sleep\) total-vm:\d+kB/);
    await kubectl(stack, ['delete', 'pod', 'oomhog', '--wait=false']);

    // Cut off from the control plane: the node lifecycle controller's Unknown after the grace period; cleared at once, before its pods' tolerations run out.
    const cut = fault('node-2', 'node-partition');
    expect(cut.code, cut.stderr).toBe(0);
    try {
      const unknown = await waitFor(
        'node-2 Unknown',
        async () => {
          const c = getNodeCondition((await getNode('node-2')).status, 'Ready').condition;
          return c?.status === 'Unknown' ? c : undefined;
        },
        { timeoutMs: GRACE_MS + 60_000, everyMs: 1_000 },
      );
      expect(unknown).toMatchObject({ reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
      await waitFor('unreachable taint', async () => ((await getNode('node-2')).spec?.taints ?? []).some((t) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute'), {
        timeoutMs: 30_000,
        everyMs: 1_000,
      });
    } finally {
      expect(fault('node-2', 'node-partition', '--clear').code).toBe(0);
    }
    await waitFor('node-2 Ready again', async () => getNodeCondition((await getNode('node-2')).status, 'Ready').condition?.status === 'True', { timeoutMs: 60_000, everyMs: 1_000 });
    await waitFor('unreachable taint removed', async () => !((await getNode('node-2')).spec?.taints ?? []).some((t) => t.key === 'node.kubernetes.io/unreachable'), {
      timeoutMs: 30_000,
      everyMs: 1_000,
    });
  });

  it('kill kubelet-2: node-2 NotReady after the grace period and not before; its containers keep running; pods replaced on node-1 after the toleration', async () => {
    // A pod that tolerates node problems forever: it must survive the outages
    // (kubelet-2 here, containerd-2 in scenario 6, which taints not-ready) and
    // be adopted by the restarted kubelet.
    await applyStdin(
      stack,
      `apiVersion: v1
kind: Pod
metadata:
  name: keeper
spec:
  nodeSelector:
    kubernetes.io/hostname: node-2
  tolerations:
    - key: node.kubernetes.io/unreachable
      operator: Exists
      effect: NoExecute
    - key: node.kubernetes.io/not-ready
      operator: Exists
      effect: NoExecute
  containers:
    - name: main
      image: busybox:1.37
      command: ["sleep", "100000"]
`,
    );
    const keeper = await readyPod('keeper running', 'keeper', 60_000);
    keeperBefore = { containerID: keeper.status!.containerStatuses![0]!.containerID!, startedAt: keeper.status!.containerStatuses![0]!.state!.running!.startedAt! };
    node2WebPods = (await podsOf('app=web')).filter((p) => p.spec?.nodeName === 'node-2');
    expect(node2WebPods.length).toBeGreaterThanOrEqual(1);

    const restartsBefore = (await docker(['inspect', '-f', '{{.RestartCount}}', containerName(stack, 'kubelet-2')])).trim();
    const killedAt = Date.now();
    await compose(stack, ['kill', 'kubelet-2']);

    const notReady = await waitFor(
      'node-2 not Ready',
      async () => {
        const ready = getNodeCondition((await getNode('node-2')).status, 'Ready').condition;
        return ready?.status !== 'True' ? { ready, after: Date.now() - killedAt } : undefined;
      },
      { timeoutMs: GRACE_MS + 30_000, everyMs: 250 },
    );
    // The last lease renewal can be up to a renew interval (lease/4) before the kill.
    expect(notReady.after).toBeGreaterThanOrEqual(GRACE_MS - (LEASE_SECONDS * 1000) / 4 - 1_000);
    expect(notReady.after).toBeLessThan(GRACE_MS + 20_000);
    const node2 = await getNode('node-2');
    expect(getNodeCondition(node2.status, 'Ready').condition).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    for (const t of ['MemoryPressure', 'DiskPressure', 'PIDPressure'] as const) expect(getNodeCondition(node2.status, t).condition?.status).toBe('Unknown');
    await waitFor(
      'unreachable taints on node-2',
      async () => {
        const taints = (await getNode('node-2')).spec?.taints ?? [];
        const keys = taints
          .filter((t) => t.key === 'node.kubernetes.io/unreachable')
          .map((t) => t.effect)
          .sort();
        return keys.join() === 'NoExecute,NoSchedule' ? keys : undefined;
      },
      { timeoutMs: 30_000, everyMs: 1_000 },
    );
    expect(await kubectl(stack, ['get', 'nodes'])).toMatch(/^node-2\s+NotReady\s/m);

    // The seed's diagnosis, on the node: the unit is dead, its journal has its last lines, the runtime still runs the containers.
    const status = await onNode('node-2', 'systemctl status kubelet --no-pager');
    expect(status.code).toBe(3);
    expect(status.stdout.split('\n')[2]).toMatch(/^     Active: failed \(Result: signal\) since \w{3} \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC; .+ ago$/);
    expect(status.stdout).toMatch(/^   Main PID: \d+ \(code=killed, signal=KILL\)$/m);
    const journal = (await onNode('node-2', 'journalctl -u kubelet -n 5 --no-pager')).stdout.trimEnd().split('\n');
    expect(journal).toHaveLength(5);
    // Each line is a klog header line or, as journald splits a record, a line of a multi-line value (`output=<`, tab-indented lines, ` >`).
    for (const l of journal) expect(l).toMatch(/^\w{3} \d\d \d\d:\d\d:\d\d node-2 kubelet\[\d+\]: ([IWE]\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ \S+:\d+\] |\t| >$)/);
    expect(journal.some((l) => / kubelet\[\d+\]: [IWE]\d{4} /.test(l))).toBe(true);
    const crictl = (await onNode('node-2', 'crictl ps')).stdout;
    expect(crictl.split('\n')[0]).toMatch(/^CONTAINER +IMAGE +CREATED +STATE +NAME +ATTEMPT +POD ID +POD +NAMESPACE$/);
    expect(crictl).toMatch(/ Running +main +0 +[0-9a-f]{13} +keeper +default$/m);
    // The unit's manager went with its container: systemctl says what brings it back instead of waiting.
    const start = await onNode('node-2', 'systemctl start kubelet');
    expect([start.code, start.stderr]).toEqual([
      1,
      'Failed to start kubelet.service: Connection refused\nkubelet.service runs in the container of compose service kubelet-2, which is not running: start it on the host with `docker compose start kubelet-2`.\n',
    ]);

    // Docker did not restart the killed kubelet (restart: always, killed by hand).
    expect((await docker(['inspect', '-f', '{{.State.Status}} {{.RestartCount}}', containerName(stack, 'kubelet-2')])).trim()).toBe(`exited ${restartsBefore}`);
    // containerd-2's containers kept running: node-2's nginx still answers at its pod IP.
    for (const p of node2WebPods) expect(await httpFromNode(stack, 'node-1', `http://${p.status?.podIP}/`)).toMatch(/^200 .*Welcome to nginx!/);

    // After the toleration (DEFAULT_TOLERATION_SECONDS) the pods are evicted and replaced on node-1.
    const replaced = await waitFor(
      '4 ready web pods on node-1',
      async () => {
        const live = (await podsOf('app=web')).filter((p) => !p.metadata.deletionTimestamp);
        return live.length === 4 && live.every((p) => p.spec?.nodeName === 'node-1' && isPodReady(p)) ? live : undefined;
      },
      { timeoutMs: TOLERATION_SECONDS * 1000 + 90_000, everyMs: 1_000 },
    );
    expect(replaced).toHaveLength(4);
    const evicted = (await podsOf('app=web')).filter((p) => p.spec?.nodeName === 'node-2');
    for (const p of evicted) expect(p.metadata.deletionTimestamp).toBeTruthy(); // Terminating until node-2's kubelet confirms
    expect((await kubectlJson<Pod>(stack, ['get', 'pod', 'keeper'])).metadata.deletionTimestamp).toBeUndefined();

    // node-problem-detector-2's health check found the kubelet gone: a condition and its Warning event on node-2.
    const unhealthy = await waitFor(
      'KubeletUnhealthy on node-2',
      async () => {
        const c = getNodeCondition((await getNode('node-2')).status, 'KubeletUnhealthy').condition;
        return c?.status === 'True' ? c : undefined;
      },
      { timeoutMs: 60_000, everyMs: 1_000 },
    );
    expect(unhealthy).toMatchObject({ reason: 'KubeletUnhealthy', message: 'kubelet:kubelet was found unhealthy; repair flag : true' });
    const events = (await kubectlJson<KubeList<Event>>(stack, ['get', 'events', '-A'])).items;
    expect(events.find((e) => e.involvedObject.kind === 'Node' && e.involvedObject.name === 'node-2' && e.reason === 'KubeletUnhealthy')).toMatchObject({
      type: 'Warning',
      source: { component: 'health-checker', host: 'node-2' },
    });
  });

  // ------------------------------------------------------------------ 8
  it('start kubelet-2: node-2 Ready again with its certificate (no new CSR), taint removed, running containers adopted, evicted pods cleaned up', async () => {
    const csrsBefore = await kubectl(stack, ['get', 'csr', '-o', 'name']);
    await compose(stack, ['start', 'kubelet-2']);
    expect((await onNode('node-2', 'systemctl is-active kubelet')).stdout).toBe('active\n');
    await waitFor('node-2 Ready', async () => (getNodeCondition((await getNode('node-2')).status, 'Ready').condition?.status === 'True' ? true : undefined), { timeoutMs: 60_000, everyMs: 1_000 });
    await waitFor(
      'no unreachable taint on node-2',
      async () => {
        const taints = (await getNode('node-2')).spec?.taints ?? [];
        return taints.some((t) => t.key.startsWith('node.kubernetes.io/')) ? undefined : true;
      },
      { timeoutMs: 30_000, everyMs: 1_000 },
    );
    expect(await kubectl(stack, ['get', 'csr', '-o', 'name'])).toBe(csrsBefore);
    const keeper = await readyPod('keeper Ready again', 'keeper', 60_000);
    // Adopted, not restarted: same container, same start time, no restart.
    // (soft: the evicted pods' clean-up below is checked even when this fails)
    expect.soft(keeper.status?.containerStatuses?.[0]).toMatchObject({ containerID: keeperBefore.containerID, restartCount: 0, state: { running: { startedAt: keeperBefore.startedAt } } });
    // The evicted pods' containers are stopped and the pods finally deleted.
    // The returning kubelet stops them (their 30 s grace) and then confirms the deletion: slow on a loaded machine.
    await waitFor('evicted pods gone', async () => ((await podsOf('app=web')).some((p) => p.spec?.nodeName === 'node-2') ? undefined : true), { timeoutMs: 180_000, everyMs: 1_000 });
    for (const p of node2WebPods) expect(await httpFromNode(stack, 'node-1', `http://${p.status?.podIP}/`)).toMatch(/^ERR /);
  });

  // ------------------------------------------------------------------ 9
  it('systemctl stop containerd on node-2: Ready=False "container runtime is down", the shims keep the pods running; start it: the same containers are adopted', async () => {
    const keeperBefore6 = (await kubectlJson<Pod>(stack, ['get', 'pod', 'keeper'])).status?.containerStatuses?.[0];
    expect((await onNode('node-2', 'systemctl stop containerd && systemctl is-active containerd')).stdout).toBe('inactive\n');
    const ready = await waitFor(
      'node-2 runtime down',
      async () => {
        const c = getNodeCondition((await getNode('node-2')).status, 'Ready').condition;
        return c?.status === 'False' ? c : undefined;
      },
      { timeoutMs: 60_000, everyMs: 1_000 },
    );
    expect(ready.reason).toBe('KubeletNotReady');
    expect(ready.message).toContain('container runtime is down');
    // containerd.service is KillMode=process: its shims, and the containers under them, outlive it.
    const forest = (await onNode('node-2', 'ps -ef --forest')).stdout;
    expect(forest).toMatch(/containerd-shim-runc-v2 -namespace k8s\.io -id [0-9a-f]{64} -address /);
    expect(forest).toMatch(/\\_ sleep 100000$/m);
    expect((await docker(['inspect', '-f', '{{.State.Status}}', containerName(stack, 'containerd-2')])).trim()).toBe('running');

    expect((await onNode('node-2', 'systemctl start containerd && systemctl is-active containerd')).stdout).toBe('active\n');
    await waitFor('node-2 Ready after the runtime is back', async () => (getNodeCondition((await getNode('node-2')).status, 'Ready').condition?.status === 'True' ? true : undefined), {
      timeoutMs: 90_000,
      everyMs: 1_000,
    });
    // The restarted runtime adopted the keeper's container from its shim: same ID, same start, no restart ...
    const recovered = (await kubectlJson<Pod>(stack, ['get', 'pod', 'keeper'])).status?.containerStatuses?.[0];
    expect(recovered).toMatchObject({
      containerID: keeperBefore6?.containerID,
      restartCount: keeperBefore6?.restartCount,
      state: { running: { startedAt: keeperBefore6?.state?.running?.startedAt } },
    });
    // ... and the kubelet reports the pod Ready again (the node controller set Ready=False while the node was not ready).
    await readyPod('keeper Ready again after the runtime restart', 'keeper', 60_000);
  });

  // ------------------------------------------------------------------ 10
  it('down -v leaves no container, volume or network of the project', async () => {
    await env!.down({ removeVolumes: true, timeout: 1_000 });
    downDone = true;
    const label = `label=com.docker.compose.project=${PROJECT}`;
    expect((await docker(['ps', '-a', '-q', '--filter', label])).trim()).toBe('');
    expect((await docker(['volume', 'ls', '-q', '--filter', label])).trim()).toBe('');
    expect((await docker(['network', 'ls', '-q', '--filter', label])).trim()).toBe('');
  });
});

async function applyStdin(stack: Stack, manifest: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const p = spawn('kubectl', ['apply', '-f', '-'], { env: { ...process.env, KUBECONFIG: stack.kubeconfig } });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`kubectl apply: ${err.trim()}`))));
    p.stdin.end(manifest);
  });
}

interface TraceRecord {
  method: string;
  node?: string;
  pod?: string | null;
  request?: unknown;
}

/**
 * `pnpm kubelab trace --json` against the stack's NATS, as the README says:
 * `--state-dir` is KUBECONFIG_DIR, where the kubeconfig service wrote the
 * trace identity and cluster.json (the `kubelab` script runs packages/kubelab/dist/main.js).
 */
function startTrace(stateDir: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(REPO_ROOT, 'packages/kubelab/dist/main.js'),
      'trace',
      '--json',
      '--all',
      '--node',
      'node-1',
      '--method',
      'ListPodSandbox,RunPodSandbox,PullImage,CreateContainer,StartContainer',
      '--state-dir',
      stateDir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const queue: TraceRecord[] = [];
  let wake: (() => void) | undefined;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      queue.push(JSON.parse(line) as TraceRecord);
    } catch {
      return;
    }
    wake?.();
  });
  return {
    /** Consumes records until `match` returns true. */
    async next(match: (r: TraceRecord) => boolean, timeoutMs: number): Promise<TraceRecord> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (queue.length) {
          const r = queue.shift()!;
          if (match(r)) return r;
        }
        if (child.exitCode !== null) throw new Error(`kubelab trace exited ${child.exitCode}: ${stderr.trim()}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching trace record within ${timeoutMs} ms (stderr: ${stderr.trim() || '-'})`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, Math.min(left, 1000));
        });
      }
    },
    stop: () => child.kill('SIGTERM'),
  };
}
