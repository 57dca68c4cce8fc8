// The local runner as a user drives it: `kubelab up` with the real binaries,
// the real kubectl, the seed lab's probedemo, a Service's rules, a kubelet
// killed through its pid file (the node-lifecycle demo of issue 6) and
// diagnosed and started again from the node's shell (issue 15).
// Timings are shortened only through upstream flags and --time-scale.

import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpsRequest } from '@kubelab/apiserver/testing';
import { certificateInfo, loadKubeconfig } from '@kubelab/pki';
import { requireTool, waitFor } from '@kubelab/testing';
import { LocalCluster, ROOT, RUNNER } from './local-cluster.js';

const SERVICES = [
  'nats',
  'apiserver',
  'scheduler',
  'controller-manager',
  'metrics-server',
  'containerd-control-plane',
  'kubelet-control-plane',
  'kube-proxy-control-plane',
  'node-problem-detector-control-plane',
  'containerd-1',
  'kubelet-1',
  'kube-proxy-1',
  'containerd-2',
  'kubelet-2',
  'kube-proxy-2',
];

const ready = requireTool('nats-server') && requireTool('kubectl');

describe.runIf(ready)('pnpm kubelab up (local processes)', { timeout: 120_000 }, () => {
  const NODES = ['control-plane', 'node-1', 'node-2'];
  const cluster = new LocalCluster('kubelab-up-');
  const dir = cluster.dir;

  const kubectl = (args: string[], stdin?: string) => cluster.kubectl(args, stdin);
  const pidOf = (svc: string) => Number(readFileSync(join(dir, 'run', `${svc}.pid`), 'utf8').trim());
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    // Three nodes of four units each on a shared CI machine: the deadline is generous, not the expectation.
    await cluster.up(
      [
        // Every port moved by 20000 (apiserver 26443, NATS 24222, ...): kubectl finds it
        // through the kubeconfig, `kubelab rules` through the state dir's cluster.json.
        '--nodes',
        '2',
        '--port-offset',
        '20000',
        // upstream flags, routed to their owners by the runner
        '--node-monitor-grace-period=8s',
        '--node-monitor-period=1s',
        '--node-lease-duration-seconds=4',
        '--default-unreachable-toleration-seconds=5',
        '--default-not-ready-toleration-seconds=5',
        // kubelet and containerd both own it: container time and probe periods 10x faster
        '--time-scale=10',
      ],
      150_000,
    );
  }, 180_000);

  afterAll(async () => {
    await cluster.down();
  });

  it('writes a pid file per process, named like the compose services, and a kubeconfig that works', async () => {
    for (const svc of SERVICES) expect(alive(pidOf(svc)), svc).toBe(true);
    expect(readFileSync(join(dir, 'kubeconfig'), 'utf8')).toContain('server: https://127.0.0.1:26443');
    expect(JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8'))).toEqual({ natsUrl: 'nats://127.0.0.1:24222', server: 'https://127.0.0.1:26443', portOffset: 20000 });
    const nodes = await kubectl(['get', 'nodes']);
    expect(nodes.stdout).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION$/m);
    expect(nodes.stdout).toMatch(/^control-plane\s+Ready\s+control-plane\s+\S+\s+v1\.32/m);
    expect(nodes.stdout).toMatch(/^node-1\s+Ready\s+<none>\s+\S+\s+v1\.32/m);
    expect(nodes.stdout).toMatch(/^node-2\s+Ready\s+<none>/m);
  });

  it("shows kube-system as kubeadm's: the four static pods on control-plane, kube-proxy, node-problem-detector and kube-network-policies on every node, two coredns pods, all Running and Ready", async () => {
    const cp = JSON.parse((await kubectl(['get', 'node', 'control-plane', '-o', 'json'])).stdout) as { metadata: { labels: Record<string, string> }; spec: { taints?: unknown[] } };
    expect(cp.spec.taints).toEqual([{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
    expect(cp.metadata.labels).toMatchObject({ 'node-role.kubernetes.io/control-plane': '', 'node.kubernetes.io/exclude-from-external-load-balancers': '' });
    expect(cluster.output).toContain('[mark-control-plane] Marking the node control-plane as control-plane by adding the taints [node-role.kubernetes.io/control-plane:NoSchedule]');
    // 4 static pods + 3 DaemonSets x 3 nodes + metrics-server's Deployment + coredns' 2 replicas, every one 1/1 Running (stand-ins start at once; probes at 10x).
    const rows = await waitFor(
      'kube-system pods Running and ready',
      async () => {
        const r = await kubectl(['-n', 'kube-system', 'get', 'pods', '-o', 'wide', '--no-headers']);
        const lines = r.stdout.trim().split('\n').filter(Boolean);
        return lines.length === 16 && lines.every((l) => /^\S+\s+1\/1\s+Running\s/.test(l)) ? lines : undefined;
      },
      { timeoutMs: 90_000, everyMs: 1_000 },
    );
    const nodeOf = (l: string) => l.split(/\s+/)[6];
    for (const c of ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler']) {
      expect(
        rows.find((l) => l.startsWith(`${c}-control-plane `)),
        c,
      ).toMatch(/\s127\.0\.0\.1\s+control-plane\s/);
    }
    for (const ds of ['kube-proxy', 'node-problem-detector', 'kube-network-policies']) {
      const pods = rows.filter((l) => new RegExp(`^${ds}-[a-z0-9]{5}\\s`).test(l));
      expect(pods.map(nodeOf).sort(), ds).toEqual(NODES);
    }
    expect(rows.filter((l) => /^coredns-[a-z0-9]{8,10}-[a-z0-9]{5}\s/.test(l))).toHaveLength(2);
    expect((await kubectl(['-n', 'kube-system', 'get', 'svc', 'kube-dns', '--no-headers'])).stdout).toMatch(/^kube-dns\s+ClusterIP\s+10\.96\.0\.10\s+<none>\s+53\/UDP,53\/TCP,9153\/TCP\s/);
    // The DaemonSet controller counts the pods' readiness a moment after the kubelets report it.
    const daemonSets = await waitFor(
      'both DaemonSets 3/3 ready',
      async () => {
        const out = (await kubectl(['-n', 'kube-system', 'get', 'ds'])).stdout;
        return /^kube-proxy\s+3\s+3\s+3\s/m.test(out) && /^node-problem-detector\s+3\s+3\s+3\s/m.test(out) ? out : undefined;
      },
      { timeoutMs: 30_000, everyMs: 1_000 },
    );
    expect(daemonSets).toMatch(/^kube-proxy\s+3\s+3\s+3\s+3\s+3\s+kubernetes\.io\/os=linux\s/m);
    expect(daemonSets).toMatch(/^node-problem-detector\s+3\s+3\s+3\s+3\s+3\s+<none>\s/m);
    // The manifests kubelet-control-plane runs, where a kubeadm node has them (its root's /etc/kubernetes/manifests); the stand-in names the real process.
    expect(readdirSync(join(dir, 'nodes', 'control-plane', 'root', 'etc', 'kubernetes', 'manifests')).sort()).toEqual([
      'etcd.yaml',
      'kube-apiserver.yaml',
      'kube-controller-manager.yaml',
      'kube-scheduler.yaml',
    ]);
    expect((await kubectl(['-n', 'kube-system', 'logs', 'kube-scheduler-control-plane'])).stdout).toContain('kube-scheduler runs as a process of its own: "scheduler" of kubelab up');
    // kubectl get cs probes this cluster's scheduler and controller-manager (their ports moved by --port-offset) and the store.
    const cs = await kubectl(['get', 'cs']);
    expect(cs.stderr).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
    expect(
      cs.stdout
        .trim()
        .split('\n')
        .map((l) => l.replace(/\s+/g, ' ').trim()),
    ).toEqual(['NAME STATUS MESSAGE ERROR', 'scheduler Healthy ok', 'controller-manager Healthy ok', 'etcd-0 Healthy ok']);
  });

  it('nodes join by TLS bootstrap: one CSR each from the bootstrap token, approved and issued; kubelet.conf holds the node identity', async () => {
    const token = JSON.parse(readFileSync(join(dir, 'bootstrap-token.json'), 'utf8')) as { items: { data: Record<string, string> }[] };
    const tokenId = Buffer.from(token.items[0]!.data['token-id']!, 'base64').toString();
    const csr = await kubectl(['get', 'csr']);
    expect(csr.stdout).toMatch(/^NAME\s+AGE\s+SIGNERNAME\s+REQUESTOR\s+REQUESTEDDURATION\s+CONDITION$/m);
    // The workers' bootstrap requests, and control-plane's kubelet rotating the certificate kubeadm init embedded in its
    // kubelet.conf, as itself (csr-*); a rotated certificate is renewed only near its end, a year from now.
    const rows = csr.stdout.trim().split('\n').slice(1);
    expect(rows).toHaveLength(3);
    const bootstrap = rows.filter((r) => r.startsWith('node-csr-'));
    expect(bootstrap).toHaveLength(2);
    for (const row of bootstrap) {
      expect(row).toMatch(new RegExp(`^node-csr-[A-Za-z0-9_-]{43}\\s+\\S+\\s+kubernetes\\.io/kube-apiserver-client-kubelet\\s+system:bootstrap:${tokenId}\\s+<none>\\s+Approved,Issued$`));
    }
    expect(rows.find((r) => !r.startsWith('node-csr-'))).toMatch(/^csr-[a-z0-9]{5}\s+\S+\s+kubernetes\.io\/kube-apiserver-client-kubelet\s+system:node:control-plane\s+<none>\s+Approved,Issued$/);
    // kubelet-finalize: control-plane's kubelet.conf names the pair its kubelet rotated, as after kubeadm init.
    const cpPem = join(dir, 'nodes', 'control-plane', 'kubelet', 'pki', 'kubelet-client-current.pem');
    expect(readFileSync(join(dir, 'nodes', 'control-plane', 'kubelet.conf'), 'utf8')).toContain(`client-certificate: ${cpPem}`);
    expect(cluster.output).toContain(`[kubelet-finalize] Updating "${join(dir, 'nodes', 'control-plane', 'kubelet.conf')}" to point to a rotatable kubelet client certificate and key`);
    const secret = await kubectl(['get', 'secret', '-n', 'kube-system', `bootstrap-token-${tokenId}`, '-o', 'jsonpath={.type} {.data.auth-extra-groups}']);
    expect(secret.stdout).toBe(`bootstrap.kubernetes.io/token ${Buffer.from('system:bootstrappers:kubeadm:default-node-token').toString('base64')}`);
    for (const node of ['node-1', 'node-2']) {
      const conf = loadKubeconfig(join(dir, 'nodes', node, 'kubelet.conf'));
      const current = join(dir, 'nodes', node, 'kubelet', 'pki', 'kubelet-client-current.pem');
      expect(readFileSync(join(dir, 'nodes', node, 'kubelet.conf'), 'utf8')).toContain(`client-certificate: ${current}`);
      const id = certificateInfo(conf.clientCertPem!);
      expect([id.commonName, id.organizations, id.issuerCommonName]).toEqual([`system:node:${node}`, ['system:nodes'], 'kubernetes']);
      expect(loadKubeconfig(join(dir, 'nodes', node, 'bootstrap-kubelet.conf')).token).toMatch(new RegExp(`^${tokenId}\\.[a-z0-9]{16}$`));
    }
    expect(cluster.output).toContain(`[bootstrap-token] Using token: ${tokenId}.<secret in ${join(dir, 'bootstrap-token.json')}>`);
  });

  it('answers a request without credentials with 401, except on the health and version paths', async () => {
    // kubectl with no credentials prompts for a username instead of asking (as upstream): a plain HTTPS client, as curl --cacert.
    const get = (path: string) => httpsRequest(26443, path, readFileSync(join(dir, 'pki', 'ca.crt'), 'utf8'), {}).then(({ status, body }) => ({ status, body }));
    const pods = await get('/api/v1/namespaces/default/pods');
    expect([pods.status, JSON.parse(pods.body)]).toEqual([401, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 }]);
    expect(await get('/healthz')).toEqual({ status: 200, body: 'ok' });
    expect((await get('/version')).body).toContain('"gitVersion"');
  });

  it('runs the seed lab: probedemo restarts once its liveness probe fails, and describe shows why', async () => {
    // The README's command, from the repository root.
    expect((await kubectl(['apply', '-f', join(ROOT, 'examples/probedemo.yaml')])).stdout).toBe('pod/probedemo created\n');
    // 30 s of container time at 10x, then 3 failed probes of 5 s each
    const line = await waitFor(
      'probedemo restarted',
      async () => {
        const r = await kubectl(['get', 'pod', 'probedemo', '--no-headers']);
        const m = /^probedemo\s+\S+\s+\S+\s+(\d+)/.exec(r.stdout);
        return m && Number(m[1]) >= 1 ? r.stdout : undefined;
      },
      { timeoutMs: 40_000 },
    );
    expect(line).toMatch(/^probedemo\s+1\/1\s+Running\s+[1-9]/);
    const described = (await kubectl(['describe', 'pod', 'probedemo'])).stdout;
    expect(described).toMatch(/Warning\s+Unhealthy\s+.*Liveness probe failed: cat: \/tmp\/healthy: No such file or directory/);
    expect(described).toMatch(/Normal\s+Killing\s+.*Container app failed liveness probe, will be restarted/);
  });

  it('publishes the kube-proxy configuration and renders a Service as iptables rules', async () => {
    const conf = await kubectl(['get', 'cm', 'kube-proxy', '-n', 'kube-system', '-o', 'jsonpath={.data.config\\.conf}']);
    expect(conf.stdout).toMatch(/^mode: iptables$/m);
    expect((await kubectl(['create', 'deployment', 'web', '--image=nginx', '--replicas=2'])).stdout).toBe('deployment.apps/web created\n');
    expect((await kubectl(['expose', 'deployment', 'web', '--port=80'])).stdout).toBe('service/web exposed\n');
    const rules = await waitFor(
      'web in the rules of node-1',
      async () => {
        const r = await new Promise<string>((resolve) => execFile(process.execPath, [RUNNER, 'rules', '--node', 'node-1', '--state-dir', dir], (_e, out) => resolve(out)));
        return r.includes('"default/web cluster IP"') && /-A KUBE-SEP-\S+ .*"default\/web" .*-j DNAT/.test(r) ? r : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(rules).toMatch(/-A KUBE-SERVICES -d 10\.\d+\.\d+\.\d+\/32 -p tcp -m comment --comment "default\/web cluster IP" -m tcp --dport 80 -j KUBE-SVC-[A-Z2-7]{16}/);
  });

  it('pods/ and services/proxy reach pods through their kubelet (the local runner has no pod network)', async () => {
    const page = await waitFor(
      "nginx's page through services/web:80/proxy",
      async () => {
        const r = await kubectl(['get', '--raw', '/api/v1/namespaces/default/services/web:80/proxy/']);
        return r.code === 0 ? r.stdout : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(page).toContain('<title>Welcome to nginx!</title>');
    // The scheduler keeps user pods off the tainted control-plane node.
    const nodes = (await kubectl(['get', 'pods', '-o', 'jsonpath={.items[*].spec.nodeName}'])).stdout.split(' ');
    expect(nodes.length).toBeGreaterThanOrEqual(3);
    expect(nodes).not.toContain('control-plane');
    // Nothing listens on probedemo's port 80: the runtime's port-forward failure comes back as upstream's 503.
    const r = await kubectl(['get', '--raw', '/api/v1/namespaces/default/pods/probedemo:80/proxy/']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error from server \(ServiceUnavailable\): error trying to reach service: error forwarding port 80 to pod [0-9a-f]{64}, uid : .*connection refused/m);
  });

  it('a killed kubelet turns its node NotReady after the grace period, and its pods move to the other node', async () => {
    const pods = (await kubectl(['get', 'pods', '-l', 'app=web', '-o', 'wide', '--no-headers'])).stdout;
    const victimNode = /\snode-(\d)\s/.exec(pods)?.[1] === '2' ? '2' : '1';
    const survivor = victimNode === '1' ? 'node-2' : 'node-1';
    const kubeletPid = pidOf(`kubelet-${victimNode}`);
    const killedAt = Date.now();
    process.kill(kubeletPid, 'SIGKILL');
    await waitFor('runner reports the exit', async () => (cluster.output.includes(`kubelet-${victimNode} exited`) ? true : undefined), { timeoutMs: 10_000 });
    expect(existsSync(join(dir, 'run', `kubelet-${victimNode}.pid`))).toBe(false);
    expect(alive(pidOf(`containerd-${victimNode}`))).toBe(true);

    const notReady = await waitFor(
      `node-${victimNode} NotReady`,
      async () => {
        const r = await kubectl(['get', 'node', `node-${victimNode}`, '--no-headers']);
        return /\sNotReady\s/.test(r.stdout) ? Date.now() : undefined;
      },
      { timeoutMs: 40_000 },
    );
    // not before the grace period (8 s) has passed since the last heartbeat
    expect(notReady - killedAt).toBeGreaterThan(4_000);
    const taints = (await kubectl(['get', 'node', `node-${victimNode}`, '-o', 'jsonpath={.spec.taints[*].key}'])).stdout;
    expect(taints).toContain('node.kubernetes.io/unreachable');
    const ready = (await kubectl(['get', 'node', `node-${victimNode}`, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].message}'])).stdout;
    expect(ready).toBe('Kubelet stopped posting node status.');

    // after the 5 s toleration the pods are evicted and replaced on the survivor
    await waitFor(
      'web pods all Running on the survivor',
      async () => {
        const r = (await kubectl(['get', 'pods', '-l', 'app=web', '-o', 'wide', '--no-headers'])).stdout.trim().split('\n');
        const running = r.filter((l) => /\sRunning\s/.test(l) && l.includes(` ${survivor} `));
        return running.length === 2 ? r : undefined;
      },
      // 5 s toleration, then eviction and a new start: seconds alone, longer on a loaded two-core machine.
      { timeoutMs: 90_000 },
    );
  });

  it('the node shell shows the killed kubelet as systemd does, and systemctl start brings the node back', async () => {
    const victim = /^kubelet-(\d) exited/m.exec(cluster.output)?.[1];
    expect(victim, 'the previous test killed a kubelet').toBeDefined();
    const node = `node-${victim}`;
    const ssh = (command: string) =>
      new Promise<{ stdout: string; stderr: string; code: number }>((resolve) =>
        execFile(process.execPath, [RUNNER, 'ssh', node, '--state-dir', dir, '--', command], { timeout: 30_000 }, (err, stdout, stderr) =>
          resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 }),
        ),
      );

    const status = await ssh('systemctl status kubelet');
    expect(status.code).toBe(3);
    const head = status.stdout.split('\n');
    expect(head[0]).toBe('× kubelet.service - kubelet: The Kubernetes Node Agent');
    expect(head[1]).toBe('     Loaded: loaded (/usr/lib/systemd/system/kubelet.service; enabled; preset: enabled)');
    expect(head[2]).toMatch(/^     Active: failed \(Result: signal\) since \w{3} \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+; .+ ago$/);
    expect(status.stdout).toMatch(/^   Main PID: \d+ \(code=killed, signal=KILL\)$/m);

    // The kubelet's real last lines (as its log file has them), then systemd's about its end.
    const journal = await ssh('journalctl -u kubelet -n 5 --no-pager');
    const lines = journal.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    const short = new RegExp(`^[A-Z][a-z]{2} \\d\\d \\d\\d:\\d\\d:\\d\\d ${node} (kubelet|systemd)\\[\\d+\\]: (.*)$`);
    for (const l of lines) expect(l).toMatch(short);
    expect(lines.slice(-2).map((l) => short.exec(l)![2])).toEqual(['kubelet.service: Main process exited, code=killed, status=9/KILL', "kubelet.service: Failed with result 'signal'."]);
    const logTail = readFileSync(join(dir, 'logs', `kubelet-${victim}.log`), 'utf8')
      .trimEnd()
      .split('\n')
      .slice(-3);
    expect(lines.slice(0, 3).map((l) => short.exec(l)![2])).toEqual(logTail);

    expect(await ssh('systemctl start kubelet')).toMatchObject({ code: 0, stderr: '' });
    expect((await ssh('systemctl is-active kubelet')).stdout).toBe('active\n');
    expect(alive(pidOf(`kubelet-${victim}`))).toBe(true);
    await waitFor(
      `${node} Ready again`,
      async () => {
        const r = await kubectl(['get', 'node', node, '--no-headers']);
        return new RegExp(`^${node}\\s+Ready\\s`).test(r.stdout) ? true : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(cluster.output).toMatch(new RegExp(`^started kubelet-${victim} \\(pid \\d+\\) by systemctl$`, 'm'));
  });

  it("reads the object store and the CRI calls through the secured NATS with the state dir's certificates", async () => {
    const cli = (args: string[], timeout = 20_000) =>
      new Promise<{ stdout: string; stderr: string }>((resolve) =>
        execFile(process.execPath, [RUNNER, ...args, '--state-dir', dir], { timeout, killSignal: 'SIGINT' }, (_e, stdout, stderr) => resolve({ stdout, stderr })),
      );
    const kv = await cli(['kv', 'get', '/registry/namespaces/default']);
    expect(kv.stdout).toMatch(/^\/registry\/namespaces\/default\n\{"apiVersion":"v1","kind":"Namespace"/);
    // --since replays the KUBELAB_CRI stream `kubelab up` created as the NATS admin; the viewer runs until stopped.
    const trace = await cli(['trace', '--since', '10m', '--json', '--all', '--node', 'node-2'], 5_000);
    expect(trace.stderr).toContain('watching CRI calls on nats://127.0.0.1:24222 (kubelab.cri.node-2.*) since');
    const nodes = trace.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { node: string }).node);
    expect(nodes.length).toBeGreaterThan(0);
    expect(new Set(nodes)).toEqual(new Set(['node-2']));
  });

  it('stops every process on SIGTERM and leaves no pid file behind', async () => {
    const pids = SERVICES.filter((s) => existsSync(join(dir, 'run', `${s}.pid`))).map(pidOf);
    cluster.runner.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => cluster.runner.once('exit', (c) => r(c)));
    expect(code).toBe(0);
    for (const pid of pids) expect(alive(pid), `pid ${pid}`).toBe(false);
    for (const svc of SERVICES) expect(existsSync(join(dir, 'run', `${svc}.pid`)), svc).toBe(false);
  });
});
