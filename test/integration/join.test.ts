// Nodes from other machines (issue 22): two network namespaces stand for two
// machines joined by a veth pair on a private range. The cluster runs in the
// first (`kubelab up --apiserver-advertise-address`), `kubelab token create
// --print-join-command` prints the line that `kubelab join` runs in the
// second: token discovery against the advertised apiserver, TLS bootstrap
// (the CSR shows Approved,Issued), a pod scheduled there runs, and its CRI
// calls reach the cluster's NATS through the node's leaf nats-server, so
// `kubelab trace --node` shows them. kube-proxy runs there as the kube-proxy
// ServiceAccount (the projected token of its DaemonSet's pod), so a Service's
// pod on the joined node answers through its rules. The Node Problem Detector
// runs there as the node-problem-detector ServiceAccount (its DaemonSet pod's
// token) and reads that node's journal: its conditions show on the Node and
// its writes name that user. The NetworkPolicy agent runs there as the
// kube-network-policies ServiceAccount (its DaemonSet pod's token): a
// default-deny ingress policy makes a connection to a pod on far-1 time out,
// an allow for app=client lets only that pod in, and `kubelab rules` on far-1
// prints the chains (rendered: far-1's own filter table is left alone). A wrong token or CA hash fails with kubeadm's texts.
// Needs root (ip netns), as the suites run.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requirePrerequisite, requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KUBECTL, ROOT, RUNNER, run, type Run } from './local-cluster.js';

const NS_A = `klj${process.pid}a`;
const NS_B = `klj${process.pid}b`;
const ADDR_A = '10.213.0.1';
const ADDR_B = '10.213.0.2';
const NODE = 'far-1';

const ready = requireTool('nats-server') && requireTool('kubectl') && requireTool('ip') && requireTool('openssl') && requirePrerequisite('root (ip netns)', process.getuid?.() === 0);

const ip = (args: string[]) => run('ip', args, { timeoutMs: 10_000 });

/** A long-running command inside a namespace, collecting what it prints. */
class InNetns {
  out = '';
  readonly proc: ChildProcess;
  constructor(ns: string, args: string[]) {
    this.proc = spawn('ip', ['netns', 'exec', ns, process.execPath, RUNNER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc.stdout!.on('data', (d: Buffer) => (this.out += d.toString()));
    this.proc.stderr!.on('data', (d: Buffer) => (this.out += d.toString()));
  }
  /** Waits for `text` in the output; an exit first fails with the last lines. */
  async waitFor(text: string, timeoutMs: number): Promise<void> {
    const r = await waitFor(text, () => (this.out.includes(text) ? 'ok' : this.proc.exitCode !== null ? 'exited' : undefined), { timeoutMs, everyMs: 500 });
    if (r === 'exited') throw new Error(`exited with ${this.proc.exitCode} before "${text}":\n${this.out.slice(-3000)}`);
  }
  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise((r) => this.proc.once('exit', r));
    this.proc.kill('SIGTERM');
    await exited;
  }
}

describe.runIf(ready)('a node joins from another machine (kubelab join)', { timeout: 180_000 }, () => {
  const dirA = mkdtempSync(join(tmpdir(), 'kubelab-join-a-'));
  const dirB = mkdtempSync(join(tmpdir(), 'kubelab-join-b-'));
  const dirC = mkdtempSync(join(tmpdir(), 'kubelab-join-c-'));
  let cluster: InNetns | undefined;
  let node: InNetns | undefined;
  /** `kubelab trace --all-components --json` on the first machine: the apiserver's write records, each naming who asked. */
  let viewer: InNetns | undefined;

  const inA = (exe: string, args: string[], timeoutMs = 30_000) => run('ip', ['netns', 'exec', NS_A, exe, ...args], { timeoutMs });
  const kubectl = (args: string[], stdin?: string) =>
    run('ip', ['netns', 'exec', NS_A, KUBECTL, '--kubeconfig', join(dirA, 'kubeconfig'), '--cache-dir', join(dirA, 'kcache'), ...args], {
      timeoutMs: 30_000,
      ...(stdin !== undefined ? { stdin } : {}),
    });
  /** One of far-1's own node tools (systemctl, journalctl) on the second machine, over far-1's node root. */
  const onFarNode = (tool: string, args: string[]) =>
    run('ip', ['netns', 'exec', NS_B, 'env', `KUBELAB_NODE_ROOT=${join(dirB, 'root')}`, `KUBELAB_NODE_NAME=${NODE}`, process.execPath, join(ROOT, 'services/node/dist/bin', `${tool}.js`), ...args], {
      timeoutMs: 20_000,
    });
  const kubelab = (args: string[], timeoutMs = 30_000) => inA(process.execPath, [RUNNER, ...args, '--state-dir', dirA], timeoutMs);
  /** `kubelab join` in the second machine that is expected to fail (its own state dir). */
  const failedJoin = (args: string[]): Promise<Run> =>
    run('ip', ['netns', 'exec', NS_B, process.execPath, RUNNER, 'join', `${ADDR_A}:6443`, '--node-name', 'far-2', '--state-dir', dirC, ...args], { timeoutMs: 60_000 });

  beforeAll(async () => {
    for (const ns of [NS_A, NS_B]) expect((await ip(['netns', 'add', ns])).code).toBe(0);
    expect((await ip(['link', 'add', `${NS_A}0`, 'type', 'veth', 'peer', 'name', `${NS_B}0`])).code).toBe(0);
    for (const [ns, addr] of [
      [NS_A, ADDR_A],
      [NS_B, ADDR_B],
    ] as const) {
      await ip(['link', 'set', `${ns}0`, 'netns', ns]);
      await ip(['-n', ns, 'addr', 'add', `${addr}/24`, 'dev', `${ns}0`]);
      await ip(['-n', ns, 'link', 'set', `${ns}0`, 'up']);
      await ip(['-n', ns, 'link', 'set', 'lo', 'up']);
    }
    // The first machine: the control plane (and its own node), the apiserver and NATS's leafnode port on the shared network.
    cluster = new InNetns(NS_A, ['up', '--state-dir', dirA, '--nodes', '0', '--apiserver-advertise-address', ADDR_A]);
    await cluster.waitFor('cluster ready', 300_000);
    // Watching before the node joins: its Node Problem Detector writes the node's conditions once at its start (then each heartbeat, 5 min).
    viewer = new InNetns(NS_A, ['trace', '--all-components', '--json', '--state-dir', dirA]);
    await viewer.waitFor('watching CRI calls on ', 30_000);
  }, 420_000);

  afterAll(async () => {
    try {
      await viewer?.stop();
      await node?.stop();
      await cluster?.stop();
    } finally {
      for (const ns of [NS_A, NS_B]) await ip(['netns', 'del', ns]);
      for (const d of [dirA, dirB, dirC]) rmSync(d, { recursive: true, force: true });
    }
  }, 120_000);

  it("lists kubeadm init's token and prints the join command with the CA's public key hash", async () => {
    const list = await kubelab(['token', 'list']);
    expect(list.stdout).toMatch(
      /^TOKEN {21}TTL {7}EXPIRES {16}USAGES {19}DESCRIPTION {48}EXTRA GROUPS\n[a-z0-9]{6}\.[a-z0-9]{16} {3}23h {7}\S+Z {3}authentication,signing {3}The default bootstrap token generated by 'kubeadm init'\. {3}system:bootstrappers:kubeadm:default-node-token\n$/,
    );
    // kubeadm's documented way to compute the hash, from the CA certificate.
    const spki = await run('sh', ['-c', `openssl x509 -pubkey -noout -in ${join(dirA, 'pki', 'ca.crt')} | openssl pkey -pubin -outform der | openssl dgst -sha256 -hex`]);
    const hash = spki.stdout.trim().split(' ').pop();
    const created = await kubelab(['token', 'create', '--print-join-command']);
    expect(created.stdout).toMatch(new RegExp(`^kubelab join ${ADDR_A.replace(/\./g, '\\.')}:6443 --token [a-z0-9]{6}\\.[a-z0-9]{16} --discovery-token-ca-cert-hash sha256:${hash}\\n$`));
  });

  it("refuses a wrong token secret, a wrong CA hash and an unknown token with kubeadm's errors", async () => {
    const token = (await kubelab(['token', 'create'])).stdout.trim();
    const hash = /sha256:[0-9a-f]{64}/.exec((await kubelab(['token', 'create', '--print-join-command'])).stdout)![0];
    // The bootstrap signer signs cluster-info with the new token shortly after its Secret appears.
    await waitFor(
      'cluster-info signed for the token',
      async () => (await kubectl(['-n', 'kube-public', 'get', 'cm', 'cluster-info', '-o', `jsonpath={.data.jws-kubeconfig-${token.slice(0, 6)}}`])).stdout || undefined,
      { timeoutMs: 20_000 },
    );

    const badSecret = await failedJoin(['--token', `${token.slice(0, 6)}.0123456789abcdef`, '--discovery-token-ca-cert-hash', hash]);
    expect(badSecret.code).toBe(1);
    expect(badSecret.stderr).toContain("couldn't validate the identity of the API Server: failed to verify JWS signature of received cluster info object, can't trust this API Server");

    const badHash = await failedJoin(['--token', token, '--discovery-token-ca-cert-hash', `sha256:${'0'.repeat(64)}`]);
    expect(badHash.code).toBe(1);
    expect(badHash.stderr).toContain(`cluster CA found in cluster-info ConfigMap is invalid: none of the public keys "${hash}" are pinned`);

    const unknown = await failedJoin(['--token', 'zzzzzz.0123456789abcdef', '--discovery-token-ca-cert-hash', hash, '--discovery-timeout', '2s']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('could not find a JWS signature in the cluster-info ConfigMap for token ID "zzzzzz"');

    const noHash = await failedJoin(['--token', token]);
    expect(noHash.code).toBe(2);
    expect(noHash.stderr).toContain('using token-based discovery without caCertHashes can be unsafe');
  });

  it('joins: the node is Ready, its CSR Approved,Issued, a pod runs there and its CRI calls reach the cluster through the leaf node', async () => {
    const line = (await kubelab(['token', 'create', '--print-join-command'])).stdout.trim();
    const args = line.split(' ').slice(1);
    node = new InNetns(NS_B, [...args, '--node-name', NODE, '--state-dir', dirB]);
    await node.waitFor('This node has joined the cluster:', 120_000);
    expect(node.out).toContain(`[discovery] Cluster info signature and contents are valid and TLS certificate validates against pinned roots, will use API Server "${ADDR_A}:6443"`);

    await waitFor('far-1 Ready', async () => ((await kubectl(['get', 'node', NODE, '--no-headers'])).stdout.split(/\s+/)[1] === 'Ready' ? true : undefined), { timeoutMs: 60_000, everyMs: 1000 });
    const wide = (await kubectl(['get', 'node', NODE, '-o', 'wide', '--no-headers'])).stdout.split(/\s+/);
    expect(wide.slice(0, 6)).toEqual([NODE, 'Ready', '<none>', expect.stringMatching(/^\d+s$/), 'v1.32.0', ADDR_B]);

    const tokenId = args[args.indexOf('--token') + 1]!.slice(0, 6);
    const csrs = (await kubectl(['get', 'csr', '--no-headers'])).stdout.split('\n').filter((l) => l.includes(`system:bootstrap:${tokenId}`));
    expect(csrs).toHaveLength(1);
    expect(csrs[0]!.split(/\s+/).slice(2)).toEqual(['kubernetes.io/kube-apiserver-client-kubelet', `system:bootstrap:${tokenId}`, '<none>', 'Approved,Issued']);
    // The cluster let the node's leaf in once its certificate was issued.
    await cluster!.waitFor(`[leafnode] node "${NODE}" may connect its leaf node`, 10_000);

    expect((await kubectl(['run', 'web', '--image', 'nginx:1.27', '--overrides', JSON.stringify({ spec: { nodeName: NODE } })])).stdout).toBe('pod/web created\n');
    await waitFor('web Running on far-1', async () => ((await kubectl(['get', 'pod', 'web', '--no-headers', '-o', 'wide'])).stdout.match(/\s1\/1\s+Running\s.*\sfar-1\s/) ? true : undefined), {
      timeoutMs: 60_000,
      everyMs: 1000,
    });

    // `kubelab trace` on the first machine, from the cluster's NATS (the CRI record stream): far-1's calls for the pod.
    const trace = await waitFor(
      "web's sandbox in far-1's CRI records",
      async () => {
        const t = await inA('timeout', ['-s', 'INT', '8', process.execPath, RUNNER, 'trace', '--node', NODE, '--pod', 'web', '--since', '10m', '--state-dir', dirA], 20_000);
        return t.stdout.includes('RunPodSandbox') && t.stdout.includes('StartContainer') ? t : undefined;
      },
      { timeoutMs: 60_000, everyMs: 2000 },
    );
    expect(trace.stdout).toMatch(/kubelet\(far-1\) → containerd\(far-1\) +RunPodSandbox +default\/web /);
    expect(readFileSync(join(dirB, 'nats.conf'), 'utf8')).toContain(`url: "tls://${ADDR_A}:7422"`);
  });

  it("runs kube-proxy as the kube-proxy ServiceAccount: a Service's pod on far-1 answers through far-1's kube-proxy", async () => {
    // kubeadm's way: the kubelet projects the token of the DaemonSet's pod on far-1, kube-proxy's kubeconfig names it (tokenFile).
    await node!.waitFor('[kube-proxy] Running as system:serviceaccount:kube-system:kube-proxy (the token of pod kube-system/kube-proxy-', 120_000);
    // The unit's view of its pod's ServiceAccount mount (one per unit, as each pod has its own).
    const mount = join(dirB, 'root', 'run/kubelab/units/kube-proxy/var/run/secrets/kubernetes.io/serviceaccount');
    const kubeconfig = readFileSync(join(dirB, 'root', 'var/lib/kube-proxy/kubeconfig.conf'), 'utf8');
    expect(kubeconfig).toContain(`    tokenFile: ${mount}/token\n`);
    expect(kubeconfig).not.toContain('client-certificate');
    const proxyPod = await waitFor(
      "far-1's kube-proxy pod Running",
      async () => {
        const out = (await kubectl(['-n', 'kube-system', 'get', 'pods', '-l', 'k8s-app=kube-proxy', '--field-selector', `spec.nodeName=${NODE}`, '--no-headers'])).stdout.trim();
        return /^kube-proxy-\S+\s+1\/1\s+Running\s/.test(out) ? out.split(/\s+/)[0] : undefined;
      },
      { timeoutMs: 60_000, everyMs: 1000 },
    );
    // The token the node's kube-proxy sends is the one bound to that pod.
    const claims = JSON.parse(Buffer.from(readFileSync(join(mount, 'token'), 'utf8').split('.')[1]!, 'base64url').toString('utf8')) as Record<string, any>;
    expect([claims.sub, claims['kubernetes.io'].pod.name]).toEqual(['system:serviceaccount:kube-system:kube-proxy', proxyPod]);

    expect((await kubectl(['expose', 'pod', 'web', '--port', '80', '--type', 'NodePort'])).stdout).toBe('service/web exposed\n');
    const clusterIp = (await kubectl(['get', 'svc', 'web', '-o', 'jsonpath={.spec.clusterIP}'])).stdout;
    const nodePort = (await kubectl(['get', 'svc', 'web', '-o', 'jsonpath={.spec.ports[0].nodePort}'])).stdout;
    expect((await kubectl(['run', 'bb', '--image', 'busybox:1.36', '--overrides', JSON.stringify({ spec: { nodeName: NODE } }), '--', 'sleep', '3600'])).stdout).toBe('pod/bb created\n');
    await waitFor('bb Running on far-1', async () => ((await kubectl(['get', 'pod', 'bb', '--no-headers'])).stdout.match(/\s1\/1\s+Running\s/) ? true : undefined), {
      timeoutMs: 60_000,
      everyMs: 1000,
    });
    // A pod on far-1 reaches the Service's ClusterIP: far-1's kube-proxy wrote the frontend into the node's socket-LB map.
    const page = await waitFor(
      'wget through the ClusterIP on far-1',
      async () => {
        const r = await kubectl(['exec', 'bb', '--', 'wget', '-qO-', '-T', '5', `http://${clusterIp}`]);
        return r.code === 0 ? r.stdout : undefined;
      },
      { timeoutMs: 60_000, everyMs: 2000 },
    );
    expect(page).toContain('<h1>Welcome to nginx!</h1>');
    // ... and the NodePort answers on the joined machine's own loopback.
    const viaNodePort = await waitFor(
      `NodePort ${nodePort} on the joined machine`,
      async () => {
        const r = await run(
          'ip',
          ['netns', 'exec', NS_B, process.execPath, '-e', `fetch("http://127.0.0.1:${nodePort}/").then(async (r) => console.log(r.status, r.headers.get("server")), () => process.exit(1))`],
          { timeoutMs: 10_000 },
        );
        return r.code === 0 ? r.stdout.trim() : undefined;
      },
      { timeoutMs: 30_000, everyMs: 1000 },
    );
    expect(viaNodePort).toMatch(/^200 nginx\//);
  });

  it("runs the Node Problem Detector as the node-problem-detector ServiceAccount: far-1's conditions, from far-1's journal", async () => {
    const npdUser = 'system:serviceaccount:kube-system:node-problem-detector';
    await node!.waitFor(`[node-problem-detector] Running as ${npdUser} (the token of pod kube-system/node-problem-detector-`, 120_000);
    const mount = join(dirB, 'root', 'run/kubelab/units/node-problem-detector/var/run/secrets/kubernetes.io/serviceaccount');
    const kubeconfig = readFileSync(join(dirB, 'root', 'var/lib/node-problem-detector/kubeconfig.conf'), 'utf8');
    expect(kubeconfig).toContain(`    tokenFile: ${mount}/token\n`);
    expect(kubeconfig).not.toContain('client-certificate');
    const npdPod = await waitFor(
      "far-1's node-problem-detector pod Running",
      async () => {
        const out = (await kubectl(['-n', 'kube-system', 'get', 'pods', '-l', 'app=node-problem-detector', '--field-selector', `spec.nodeName=${NODE}`, '--no-headers'])).stdout.trim();
        return /^node-problem-detector-\S+\s+1\/1\s+Running\s/.test(out) ? out.split(/\s+/)[0] : undefined;
      },
      { timeoutMs: 60_000, everyMs: 1000 },
    );
    const claims = JSON.parse(Buffer.from(readFileSync(join(mount, 'token'), 'utf8').split('.')[1]!, 'base64url').toString('utf8')) as Record<string, any>;
    expect([claims.sub, claims['kubernetes.io'].pod.name]).toEqual([npdUser, npdPod]);

    // far-1's own systemctl and journalctl show it as every node's node-problem-detector unit.
    expect((await onFarNode('systemctl', ['is-active', 'node-problem-detector'])).stdout).toBe('active\n');
    expect((await onFarNode('journalctl', ['-u', 'node-problem-detector', '--no-pager'])).stdout).toContain('node-problem-detector started');

    type Condition = { type: string; status: string; reason: string; message: string };
    const conditions = async () => (JSON.parse((await kubectl(['get', 'node', NODE, '-o', 'json'])).stdout) as { status: { conditions: Condition[] } }).status.conditions;
    const npdConditions = await waitFor(
      "NPD's conditions on far-1",
      async () => {
        const c = await conditions();
        return c.some((x) => x.type === 'KernelDeadlock') && c.some((x) => x.type === 'ContainerRuntimeUnhealthy') ? c : undefined;
      },
      { timeoutMs: 60_000, everyMs: 1000 },
    );
    const brief = (c: Condition[], type: string) => c.filter((x) => x.type === type).map((x) => [x.type, x.status, x.reason, x.message]);
    expect(brief(npdConditions, 'KernelDeadlock')).toEqual([['KernelDeadlock', 'False', 'KernelHasNoDeadlock', 'kernel has no deadlock']]);
    expect(brief(npdConditions, 'ReadonlyFilesystem')).toEqual([['ReadonlyFilesystem', 'False', 'FilesystemIsNotReadOnly', 'Filesystem is not read-only']]);
    expect(npdConditions.find((x) => x.type === 'FrequentContainerdRestart')).toMatchObject({ status: 'False', reason: 'NoFrequentContainerdRestart' });

    // The apiserver's write records: far-1's status written by the ServiceAccount, from node-problem-detector.
    const writes = await waitFor(
      "NPD's write of far-1's status in the apiserver's records",
      async () => {
        const mine = viewer!.out
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as { source?: string; user?: string; component?: string; resource?: string; subresource?: string; name?: string; code?: number })
          .filter((l) => l.source === 'kube-apiserver' && l.user === npdUser);
        // The control plane's own NPD writes its node's status as the same ServiceAccount: far-1's write is the one looked for.
        return mine.some((l) => l.resource === 'nodes' && l.subresource === 'status' && l.name === NODE) ? mine : undefined;
      },
      { timeoutMs: 30_000, everyMs: 1000 },
    );
    expect(writes.find((l) => l.resource === 'nodes' && l.subresource === 'status' && l.name === NODE)).toMatchObject({ name: NODE, component: 'node-problem-detector', code: 200 });

    // The journal-driven lessons work there: a hung task in far-1's kernel log (the line the kernel-hang fault writes) turns KernelDeadlock True.
    const kernelLine = await run(
      'ip',
      [
        'netns',
        'exec',
        NS_B,
        'sh',
        '-c',
        `cd ${join(ROOT, 'packages/kubelab')} && ${process.execPath} --input-type=module -e '
          import { appendJournal, kernelRecord } from "@kubelab/systemd";
          appendJournal(${JSON.stringify(join(dirB, 'root'))}, kernelRecord("${NODE}", "task docker:7 blocked for more than 120 seconds.", 3));'`,
      ],
      { timeoutMs: 20_000 },
    );
    expect(kernelLine.code).toBe(0);
    const deadlock = await waitFor(
      'KernelDeadlock True on far-1',
      async () => {
        const c = brief(await conditions(), 'KernelDeadlock');
        return c[0]?.[1] === 'True' ? c : undefined;
      },
      { timeoutMs: 30_000, everyMs: 1000 },
    );
    expect(deadlock).toEqual([['KernelDeadlock', 'True', 'DockerHung', 'task docker:7 blocked for more than 120 seconds.']]);
  });

  it('runs kube-network-policies as its ServiceAccount: a default-deny ingress policy closes a pod on far-1, an allow for app=client opens it to that pod only', async () => {
    const netpolUser = 'system:serviceaccount:kube-system:kube-network-policies';
    await node!.waitFor(`[kube-network-policies] Running as ${netpolUser} (the token of pod kube-system/kube-network-policies-`, 120_000);
    const mount = join(dirB, 'root', 'run/kubelab/units/kube-network-policies/var/run/secrets/kubernetes.io/serviceaccount');
    const kubeconfig = readFileSync(join(dirB, 'root', 'var/lib/kube-network-policies/kubeconfig.conf'), 'utf8');
    expect(kubeconfig).toContain(`    tokenFile: ${mount}/token\n`);
    expect(kubeconfig).not.toContain('client-certificate');
    const agentPod = await waitFor(
      "far-1's kube-network-policies pod Running",
      async () => {
        const out = (await kubectl(['-n', 'kube-system', 'get', 'pods', '-l', 'app=kube-network-policies', '--field-selector', `spec.nodeName=${NODE}`, '--no-headers'])).stdout.trim();
        return /^kube-network-policies-\S+\s+1\/1\s+Running\s/.test(out) ? out.split(/\s+/)[0] : undefined;
      },
      { timeoutMs: 60_000, everyMs: 1000 },
    );
    const claims = JSON.parse(Buffer.from(readFileSync(join(mount, 'token'), 'utf8').split('.')[1]!, 'base64url').toString('utf8')) as Record<string, any>;
    expect([claims.sub, claims['kubernetes.io'].pod.name]).toEqual([netpolUser, agentPod]);
    // far-1's own systemctl and journalctl show it as every node's kube-network-policies unit, rendering its rules (as kube-proxy there).
    expect((await onFarNode('systemctl', ['is-active', 'kube-network-policies'])).stdout).toBe('active\n');
    expect((await onFarNode('journalctl', ['-u', 'kube-network-policies', '--no-pager'])).stdout).toContain('"kube-network-policies started" mode="render"');

    // The classic lab in a namespace of its own, every pod pinned on far-1.
    const ns = 'netpol-far';
    const k = (args: string[], stdin?: string) => kubectl(['-n', ns, ...args], stdin);
    expect((await kubectl(['create', 'namespace', ns])).code).toBe(0);
    const onFar = JSON.stringify({ spec: { nodeName: NODE } });
    for (const [name, image, labels, command] of [
      ['web', 'nginx:1.27', 'app=web', []],
      ['client', 'busybox:1.36', 'app=client', ['--', 'sleep', '3600']],
      ['other', 'busybox:1.36', 'app=other', ['--', 'sleep', '3600']],
    ] as const)
      expect((await k(['run', name, '--image', image, '--labels', labels, '--overrides', onFar, ...command])).code).toBe(0);
    await waitFor(
      'web, client and other Running on far-1',
      async () => {
        const rows = (await k(['get', 'pods', '--no-headers', '-o', 'wide'])).stdout.trim().split('\n');
        return rows.length === 3 && rows.every((r) => /\s1\/1\s+Running\s.*\sfar-1\s/.test(r)) ? true : undefined;
      },
      { timeoutMs: 60_000, everyMs: 1000 },
    );
    const webIp = (await k(['get', 'pod', 'web', '-o', 'jsonpath={.status.podIP}'])).stdout;
    const clientIp = (await k(['get', 'pod', 'client', '-o', 'jsonpath={.status.podIP}'])).stdout;
    const wget = async (pod: string) => {
      const r = await k(['exec', pod, '--', 'wget', '-qO-', '-T', '2', `http://${webIp}`]);
      return r.stdout + r.stderr;
    };
    expect(await wget('client')).toContain('<h1>Welcome to nginx!</h1>');
    expect(await wget('other')).toContain('<h1>Welcome to nginx!</h1>');

    expect((await k(['apply', '-f', '-'], `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: default-deny}\nspec:\n  podSelector: {}\n  policyTypes: [Ingress]\n`)).code).toBe(0);
    await waitFor('wget from client times out', async () => ((await wget('client')).includes('wget: download timed out') ? true : undefined), { timeoutMs: 30_000, everyMs: 1000 });
    expect(await wget('other')).toContain('wget: download timed out');

    expect(
      (
        await k(
          ['apply', '-f', '-'],
          `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: allow-client}\nspec:\n  podSelector: {matchLabels: {app: web}}\n  ingress:\n  - from:\n    - podSelector: {matchLabels: {app: client}}\n`,
        )
      ).code,
    ).toBe(0);
    await waitFor('client gets in', async () => ((await wget('client')).includes('<h1>Welcome to nginx!</h1>') ? true : undefined), { timeoutMs: 30_000, everyMs: 1000 });
    expect(await wget('other')).toContain('wget: download timed out');

    // Rendered only, as kube-proxy's on a joined node: far-1's own filter table has none of the agent's chains.
    const saved = (await run('ip', ['netns', 'exec', NS_B, 'iptables-save', '-t', 'filter'], { timeoutMs: 10_000 })).stdout;
    expect(saved).not.toContain('KUBE-NWPLCY');
    // `kubelab rules` on far-1's machine: kube-proxy's rules, then the agent's chains (its /rules): web's DROP, client's ACCEPT.
    const rules = await run('ip', ['netns', 'exec', NS_B, process.execPath, RUNNER, 'rules', '--node', NODE, '--state-dir', dirB], { timeoutMs: 20_000 });
    expect(rules.stderr).toBe('');
    expect(rules.stdout).toContain('-A KUBE-SERVICES ');
    expect(rules.stdout).toContain(`\n# NetworkPolicy rules of kube-network-policies on ${NODE}\n*filter\n`);
    expect(rules.stdout).toContain(`-m comment --comment "${ns}/web has no NetworkPolicy allowing this ingress" -j DROP`);
    expect(rules.stdout).toContain(`-A KUBE-NWPLCY-INGRESS -d ${webIp}/32 -m comment --comment "${ns}/web ingress" -j KUBE-NWPLCY-`);
    expect(rules.stdout).toContain(`-s ${clientIp}/32 -j ACCEPT`);

    expect((await k(['delete', 'networkpolicy', 'default-deny', 'allow-client'])).code).toBe(0);
    await waitFor('other gets in again', async () => ((await wget('other')).includes('<h1>Welcome to nginx!</h1>') ? true : undefined), { timeoutMs: 30_000, everyMs: 1000 });
  });

  it("answers the dashboard's requests for its units through the leaf node", async () => {
    // As the dashboard (its NATS identity on the first machine): a request on kubelab.control.far-1, answered by the joined node's agent.
    const ask = (req: object) =>
      inA('sh', [
        '-c',
        `cd ${join(ROOT, 'packages/kubelab')} && ${process.execPath} --input-type=module -e '
          import { connect } from "@nats-io/transport-node";
          import { DASHBOARD_NATS_IDENTITY, natsAuthOptions, readNatsTls } from "@kubelab/nats";
          const pki = ${JSON.stringify(join(dirA, 'pki', 'etcd'))};
          const tls = readNatsTls({ caFile: pki + "/ca.crt", certFile: pki + "/dashboard-client.crt", keyFile: pki + "/dashboard-client.key" });
          const nc = await connect({ servers: "nats://127.0.0.1:4222", ...natsAuthOptions(DASHBOARD_NATS_IDENTITY, tls) });
          const r = await nc.request("kubelab.control.${NODE}", ${JSON.stringify(JSON.stringify(req))}, { timeout: 10000 });
          console.log(r.string());
          await nc.close();'`,
      ]);
    const started = await ask({ action: 'start', unit: 'kubelet' });
    expect(JSON.parse(started.stdout)).toMatchObject({ ok: true });
    const fault = await ask({ action: 'fault', fault: 'kernel-hang' });
    expect(JSON.parse(fault.stdout)).toEqual({ ok: false, output: `faults are injected on the nodes kubelab up runs; ${NODE} joined from another machine\n` });
  });
});
