// `kubelab join`: a node on another machine, as `kubeadm join` makes one.
// Token discovery (discovery.ts) gives the cluster's CA and server; the join
// writes bootstrap-kubelet.conf and the CA into its state dir (this machine's
// /etc/kubernetes), then runs the node in the foreground as `kubelab up` runs
// its nodes: containerd, the kubelet (TLS bootstrap: its CSR, approved and
// signed by the controller-manager, gives kubelet.conf) and a nats-server of
// its own, a leaf node of the cluster's NATS that carries the runtime's CRI
// records there; its leaf connection presents the kubelet's new client
// certificate. Once the kubelet has projected the token of the kube-proxy
// DaemonSet's pod on this node, kube-proxy runs with it, and the Node Problem
// Detector and the NetworkPolicy agent each with its DaemonSet pod's token
// alike (join-serviceaccount.ts) (docs/architecture.md, "Nodes from other
// machines").

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { parseDuration, which } from '@kubelab/component-base';
import { PKI_FILES } from '@kubelab/pki';
import { BOOTSTRAP_KUBELET_CONF, bootstrapKubeletConf } from './bootstrap-token.js';
import { discover } from './discovery.js';
import { DEFAULT_JOIN_STATE_DIR, JOIN_INFO_FILE, serviceEntry, stateDirFrom, type JoinInfo } from './paths.js';
import { Supervisor, waitHealthy } from './supervisor.js';
import { startJoinedNodeAgent, type JoinedNodeAgent } from './join-agent.js';
import {
  daemonSetUnitPaths,
  findServiceAccountVolume,
  JOINED_DAEMONSET_UNITS,
  linkServiceAccountMount,
  serviceAccountUser,
  writeServiceAccountKubeconfig,
  type DaemonSetUnit,
} from './join-serviceaccount.js';
import { DEFAULT_PORTS, nodePorts, npdMonitorArgs, type ComponentSpec } from './topology.js';
import { prepareNodeRoot } from './up.js';
import { joinHostPort } from '@kubelab/api';

/** kubeadm's default discovery timeout (timeouts.discovery). */
const DEFAULT_DISCOVERY_TIMEOUT = '5m0s';
const UNSAFE_WITHOUT_PINS =
  'discovery.bootstrapToken: Invalid value: "": using token-based discovery without caCertHashes can be unsafe. Set unsafeSkipCAVerification as true in your kubeadm config file or pass --discovery-token-unsafe-skip-ca-verification flag to continue';
const NO_ENDPOINT = 'discovery: Invalid value: "": bootstrapToken or file must be set';

export interface JoinArgs {
  endpoint: string;
  token: string;
  caCertHashes: string[];
  unsafeSkipCaVerification: boolean;
  nodeName: string;
  stateDir: string;
  /** Added to the node's ports (a second joined node on one host). */
  portOffset: number;
  discoveryTimeoutMs: number;
  /** The apiserver's gRPC address; default the endpoint's host, its port + 1 (kubelab's ports move together). */
  apiserverGrpcAddress?: string;
  /** NATS's leafnode port on the cluster; default the endpoint's host, 7422 moved as the apiserver's port is. */
  natsLeafnodeAddress?: string;
  /** --node-ip: default the address this machine reached the apiserver from. */
  nodeIp?: string;
}

export function parseJoinArgs(argv: readonly string[]): JoinArgs {
  let endpoint: string | undefined;
  const a: Partial<JoinArgs> & { caCertHashes: string[] } = { caCertHashes: [], unsafeSkipCaVerification: false, portOffset: 0 };
  let timeout = DEFAULT_DISCOVERY_TIMEOUT;
  let stateDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const value = () => {
      const v = arg.startsWith('--') && eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new Error(`flag needs an argument: ${name}`);
      return v;
    };
    if (name === '--token' || name === '--discovery-token') a.token = value();
    else if (name === '--discovery-token-ca-cert-hash') a.caCertHashes.push(...value().split(',').filter(Boolean));
    else if (name === '--discovery-token-unsafe-skip-ca-verification') a.unsafeSkipCaVerification = true;
    else if (name === '--node-name') a.nodeName = value();
    else if (name === '--state-dir') stateDir = value();
    else if (name === '--port-offset') {
      const v = value();
      a.portOffset = Number(v);
      if (!Number.isInteger(a.portOffset) || a.portOffset < 0 || a.portOffset > 50_000) throw new Error(`--port-offset must be a whole number from 0 to 50000, got "${v}"`);
    } else if (name === '--discovery-timeout') timeout = value();
    else if (name === '--apiserver-grpc-address') a.apiserverGrpcAddress = value();
    else if (name === '--nats-leafnode-address') a.natsLeafnodeAddress = value();
    else if (name === '--node-ip') a.nodeIp = value();
    else if (arg.startsWith('-')) throw new Error(`unknown flag: ${name}`);
    else if (endpoint === undefined) endpoint = arg;
    else throw new Error(`accepts at most 1 arg(s), received ${argv.filter((x) => !x.startsWith('-')).length}`);
  }
  if (!endpoint) throw new Error(NO_ENDPOINT);
  splitHostPort(endpoint);
  if (!a.token) throw new Error('discovery.bootstrapToken.token: Invalid value: "": the bootstrap token is invalid');
  if (a.caCertHashes.length === 0 && !a.unsafeSkipCaVerification) throw new Error(UNSAFE_WITHOUT_PINS);
  const nodeName = (a.nodeName ?? hostname()).toLowerCase();
  if (!/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(nodeName))
    throw new Error(`nodeRegistration.name: Invalid value: "${nodeName}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'`);
  return {
    endpoint,
    token: a.token,
    caCertHashes: a.caCertHashes,
    unsafeSkipCaVerification: a.unsafeSkipCaVerification ?? false,
    nodeName,
    stateDir: stateDirFrom(stateDir ?? DEFAULT_JOIN_STATE_DIR),
    portOffset: a.portOffset ?? 0,
    discoveryTimeoutMs: parseDuration(timeout),
    ...(a.apiserverGrpcAddress ? { apiserverGrpcAddress: a.apiserverGrpcAddress } : {}),
    ...(a.natsLeafnodeAddress ? { natsLeafnodeAddress: a.natsLeafnodeAddress } : {}),
    ...(a.nodeIp ? { nodeIp: a.nodeIp } : {}),
  };
}

/** `host:port` (IPv6 in brackets) → parts; a missing port is an error, as kubeadm's apiServerEndpoint. */
export function splitHostPort(endpoint: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(endpoint);
  const port = Number(m?.[3]);
  if (!m || port < 1 || port > 65535) throw new Error(`discovery.bootstrapToken.apiServerEndpoint: Invalid value: "${endpoint}": address ${endpoint}: missing port in address`);
  return { host: m[1] ?? m[2]!, port };
}

/**
 * The cluster's addresses the node dials: the apiserver's gRPC port and
 * NATS's leafnode port sit where `kubelab up` puts them (6444 and 7422, both
 * moved by the cluster's --port-offset as its 6443 is), unless given. Pure.
 */
export function clusterAddresses(host: string, apiserverPort: number, a: Pick<JoinArgs, 'apiserverGrpcAddress' | 'natsLeafnodeAddress'>): { grpc: string; leafnode: string } {
  const offset = apiserverPort - DEFAULT_PORTS.apiserver;
  return {
    grpc: a.apiserverGrpcAddress ?? joinHostPort(host, DEFAULT_PORTS.apiserverGrpc + offset),
    leafnode: a.natsLeafnodeAddress ?? joinHostPort(host, DEFAULT_PORTS.natsLeafnode + offset),
  };
}

const isLoopback = (host: string) => host === 'localhost' || host.startsWith('127.') || host === '::1';

/** Where the node's files go: its state dir plays this machine's /etc/kubernetes and /var/lib. */
export function joinFiles(stateDir: string) {
  const at = (rel: string) => join(stateDir, rel);
  return {
    bootstrapKubelet: at(BOOTSTRAP_KUBELET_CONF),
    kubelet: at('kubelet.conf'),
    caCert: at(`${PKI_FILES.ca}.crt`),
    kubeletRoot: at('kubelet'),
    /** The kubelet's client certificate and key in one file (after TLS bootstrap): the leaf connection's credential. */
    kubeletClientPem: at('kubelet/pki/kubelet-client-current.pem'),
    containerdRoot: at('containerd'),
    podLogs: at('pods'),
    root: at('root'),
    natsConf: at('nats.conf'),
  };
}

/** The node's nats-server: loopback clients without credentials (only this machine's), one leaf connection to the cluster with the kubelet's certificate. Pure. */
export function leafNatsConfig(o: { listen: string; monitor: string; remote: string; clientPem: string; caFile: string }): string {
  const q = (s: string) => JSON.stringify(s);
  return [
    `listen: ${q(o.listen)}`,
    `http: ${q(o.monitor)}`,
    `# The cluster's NATS maps this certificate (CN=system:node:<node>, O=system:nodes) to the node's user.`,
    `leafnodes {`,
    `  remotes: [`,
    `    { url: ${q(`tls://${o.remote}`)}, tls: { cert_file: ${q(o.clientPem)}, key_file: ${q(o.clientPem)}, ca_file: ${q(o.caFile)}, timeout: 5 } }`,
    `  ]`,
    `}`,
    '',
  ].join('\n');
}

/** The node's processes, in start order: containerd, the kubelet; nats-server once the kubelet holds its certificate; each DaemonSet unit (JOINED_DAEMONSET_UNITS) once its DaemonSet pod's ServiceAccount token is projected. */
export function joinComponents(
  a: JoinArgs,
  cluster: { grpc: string },
  nodeIp: string,
  natsPort = DEFAULT_PORTS.nats + a.portOffset,
): { containerd: ComponentSpec; kubelet: ComponentSpec; nats: ComponentSpec; daemonSets: Record<DaemonSetUnit['unit'], ComponentSpec> } {
  const f = joinFiles(a.stateDir);
  const p = nodePorts(1, a.portOffset);
  const sock = join(f.root, 'run', 'containerd', 'containerd.sock');
  const socketLb = join(f.root, 'run', 'kubelab', 'socket-lb');
  const unit = (name: 'containerd' | 'kubelet' | DaemonSetUnit['unit']) => ({ node: a.nodeName, root: f.root, name });
  return {
    containerd: {
      name: 'containerd',
      service: 'containerd',
      args: [
        `--node-name=${a.nodeName}`,
        `--address=${sock}`,
        `--root=${f.containerdRoot}`,
        `--health-port=${p.containerdHealth}`,
        // The node's own nats-server, the cluster's leaf: records reach the cluster's NATS through it.
        `--nats-url=nats://127.0.0.1:${natsPort}`,
        `--socket-lb-dir=${socketLb}`,
      ],
      health: `http://127.0.0.1:${p.containerdHealth}/healthz`,
      unit: unit('containerd'),
    },
    kubelet: {
      name: 'kubelet',
      service: 'kubelet',
      args: [
        `--hostname-override=${a.nodeName}`,
        `--node-ip=${nodeIp}`,
        `--address=${nodeIp}`,
        `--apiserver-grpc-address=${cluster.grpc}`,
        `--bootstrap-kubeconfig=${f.bootstrapKubelet}`,
        `--kubeconfig=${f.kubelet}`,
        `--client-ca-file=${f.caCert}`,
        `--container-runtime-endpoint=unix://${sock}`,
        `--port=${p.kubelet}`,
        `--healthz-port=${p.kubeletHealthz}`,
        `--root-dir=${f.kubeletRoot}`,
        `--pod-manifest-path=${join(f.root, 'etc', 'kubernetes', 'manifests')}`,
        `--pod-logs-dir=${f.podLogs}`,
        '--rotate-certificates',
        '--cluster-dns=10.96.0.10',
        '--cluster-domain=cluster.local',
        '--v=2',
      ],
      unit: unit('kubelet'),
    },
    nats: { name: 'nats', service: 'nats', args: ['-c', f.natsConf], health: `http://127.0.0.1:${DEFAULT_PORTS.natsMonitor + a.portOffset}/healthz` },
    daemonSets: {
      'kube-proxy': {
        name: 'kube-proxy',
        service: 'kube-proxy',
        args: [
          `--hostname-override=${a.nodeName}`,
          `--apiserver-grpc-address=${cluster.grpc}`,
          // The kube-proxy ServiceAccount's token (tokenFile), as kubeadm's DaemonSet pod runs it.
          `--kubeconfig=${daemonSetUnitPaths(f.root, 'kube-proxy').kubeconfig}`,
          // As `kubelab up`'s nodes: the runtime's connect-time translation is the data path (its Service map), no netfilter rules are applied.
          '--apply=never',
          `--socket-lb-dir=${socketLb}`,
          `--healthz-bind-address=127.0.0.1:${p.kubeProxyHealthz}`,
          `--metrics-bind-address=127.0.0.1:${p.kubeProxyMetrics}`,
          // Its sync records (the dashboard's flow) reach the cluster through the node's leaf, which may publish this node's kube-proxy subjects.
          `--nats-url=nats://127.0.0.1:${natsPort}`,
        ],
        health: `http://127.0.0.1:${p.kubeProxyHealthz}/healthz`,
        unit: unit('kube-proxy'),
      },
      'node-problem-detector': {
        name: 'node-problem-detector',
        service: 'node-problem-detector',
        args: [
          `--hostname-override=${a.nodeName}`,
          `--apiserver-grpc-address=${cluster.grpc}`,
          // The node-problem-detector ServiceAccount's token (tokenFile), as upstream's DaemonSet pod's in-cluster config.
          `--kubeconfig=${daemonSetUnitPaths(f.root, 'node-problem-detector').kubeconfig}`,
          // `kubelab up`'s nodes' monitors; the unit reads this node's journal (KUBELAB_NODE_ROOT).
          ...npdMonitorArgs(),
          '--address=127.0.0.1',
          `--port=${p.npd}`,
          '--prometheus-address=127.0.0.1',
          `--prometheus-port=${p.npdMetrics}`,
        ],
        // The DaemonSet's env: the health checker finds this node's kubelet healthz here.
        env: { HOST_ADDRESS: '127.0.0.1', KUBELET_PORT: String(p.kubeletHealthz) },
        health: `http://127.0.0.1:${p.npd}/healthz`,
        unit: unit('node-problem-detector'),
      },
      'kube-network-policies': {
        name: 'kube-network-policies',
        service: 'kube-network-policies',
        args: [
          `--hostname-override=${a.nodeName}`,
          `--apiserver-grpc-address=${cluster.grpc}`,
          // The kube-network-policies ServiceAccount's token (tokenFile), as upstream's DaemonSet pod's in-cluster config.
          `--kubeconfig=${daemonSetUnitPaths(f.root, 'kube-network-policies').kubeconfig}`,
          // As kube-proxy here and the agents of `kubelab up`'s nodes: rendered only (served at /rules); the connect hook below enforces, and the machine's own firewall is left alone.
          '--apply=never',
          // The node's pods are in loopback mode as kubelab up's: the runtime's connect hook enforces the allow lists written here.
          `--socket-lb-dir=${socketLb}`,
          `--metrics-bind-address=127.0.0.1:${p.netpol}`,
        ],
        health: `http://127.0.0.1:${p.netpol}/healthz`,
        unit: unit('kube-network-policies'),
      },
    },
  };
}

const NATS_MISSING = 'kubelab join needs nats-server on PATH (Debian/Ubuntu: apt-get install nats-server): the node sends its CRI records to the cluster through a NATS leaf node.';
const HEALTH_DEADLINE_MS = 90_000;

export async function joinNode(argv: string[]): Promise<number> {
  let a: JoinArgs;
  try {
    a = parseJoinArgs(argv);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 2;
  }
  const natsBin = which('nats-server');
  if (!natsBin) {
    process.stderr.write(NATS_MISSING + '\n');
    return 1;
  }
  const log = (l: string) => process.stdout.write(`${l}\n`);
  const f = joinFiles(a.stateDir);
  log('[preflight] Running pre-flight checks');
  let info;
  try {
    info = await discover({ endpoint: a.endpoint, token: a.token, pins: a.caCertHashes, timeoutMs: a.discoveryTimeoutMs, log });
  } catch (e) {
    process.stderr.write(
      `error execution phase preflight: couldn't validate the identity of the API Server: ${(e as Error).message}\nTo see the stack trace of this error execute with --v=5 or higher\n`,
    );
    return 1;
  }
  const ep = splitHostPort(a.endpoint);
  // cluster-info names the server nodes use; a cluster started without --apiserver-advertise-address names loopback, which only its own machine reaches.
  const named = new URL(info.server);
  const server = isLoopback(named.hostname) && !isLoopback(ep.host) ? `https://${a.endpoint}` : info.server;
  const host = new URL(server).hostname.replace(/^\[|\]$/g, '');
  const cluster = clusterAddresses(host, Number(new URL(server).port || 443), a);
  const nodeIp = a.nodeIp ?? (info.localAddress.replace(/^::ffff:/, '') || '127.0.0.1');

  mkdirSync(join(a.stateDir, 'pki'), { recursive: true });
  // `kubelab rules --node <node>` on this machine finds the node's ports from it.
  writeFileSync(join(a.stateDir, JOIN_INFO_FILE), JSON.stringify({ nodeName: a.nodeName, portOffset: a.portOffset } satisfies JoinInfo) + '\n');
  writeFileSync(f.caCert, info.caPem, { mode: 0o644 });
  writeFileSync(f.bootstrapKubelet, bootstrapKubeletConf(server, info.caPem, a.token), { mode: 0o600 });
  for (const d of [f.kubeletRoot, f.containerdRoot, f.podLogs]) mkdirSync(d, { recursive: true });
  prepareNodeRoot(f.root);
  mkdirSync(join(f.root, 'etc', 'kubernetes', 'manifests'), { recursive: true });
  const natsPort = DEFAULT_PORTS.nats + a.portOffset;
  const natsMonitor = `127.0.0.1:${DEFAULT_PORTS.natsMonitor + a.portOffset}`;
  writeFileSync(f.natsConf, leafNatsConfig({ listen: `127.0.0.1:${natsPort}`, monitor: natsMonitor, remote: cluster.leafnode, clientPem: f.kubeletClientPem, caFile: f.caCert }));
  log(`[kubelet-start] Writing the bootstrap kubeconfig to "${f.bootstrapKubelet}" (server ${server}, node ${a.nodeName}, node IP ${nodeIp})`);

  const specs = joinComponents(a, cluster, nodeIp, natsPort);
  const entries = new Map<string, string>();
  for (const svc of [specs.containerd.service, specs.kubelet.service, ...JOINED_DAEMONSET_UNITS.map((du) => specs.daemonSets[du.unit].service)]) {
    const e = serviceEntry(svc);
    if (!e) {
      process.stderr.write(`kubelab join: services/${svc} is not built (run pnpm build)\n`);
      return 1;
    }
    entries.set(svc, e);
  }
  let stopRequested = false;
  let agent: JoinedNodeAgent | undefined;
  const sup = new Supervisor({
    stateDir: a.stateDir,
    command: (spec) => (spec.service === 'nats' ? [natsBin] : [process.execPath, entries.get(spec.service)!]),
    onExit: (r, code, signal) => log(`${r.spec.name} exited (${signal ?? `code ${code}`}); logs: ${r.logFile}`),
  });
  const stopped = new Promise<void>((resolve) => {
    const onSignal = () => {
      if (stopRequested) return;
      stopRequested = true;
      log('stopping node');
      void (agent?.close() ?? Promise.resolve())
        .then(() => sup.stopAll())
        .then(() => {
          log('stopped');
          resolve();
        });
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });

  const startOne = async (spec: ComponentSpec): Promise<boolean> => {
    const r = await sup.start(spec);
    log(`started ${spec.name} (pid ${r?.child.pid ?? '-'})`);
    if (!spec.health) return true;
    let dead = !r;
    void r?.exited.then(() => (dead = true));
    try {
      await waitHealthy(spec.health, HEALTH_DEADLINE_MS, () => dead);
      return true;
    } catch (e) {
      process.stderr.write(`${spec.name} did not become healthy: ${(e as Error).message}\n${sup.tail(spec.name)}\n`);
      return false;
    }
  };

  /** A unit as its DaemonSet's pod on this node runs it: once the kubelet has projected the pod's ServiceAccount token. */
  const runAsDaemonSetPod = async (spec: ComponentSpec, du: DaemonSetUnit): Promise<void> => {
    const tag = `[${du.unit}]`;
    const paths = daemonSetUnitPaths(f.root, du.unit);
    log(`${tag} Waiting for the kubelet to project the ${du.serviceAccount} ServiceAccount token of the DaemonSet pod on this node`);
    let found;
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());
    while (!stopRequested && !(found = findServiceAccountVolume(f.kubeletRoot, du.namespace, du.serviceAccount))) await sleep(1_000);
    if (!found || stopRequested) return;
    linkServiceAccountMount(paths.mount, found.dir);
    writeServiceAccountKubeconfig(server, paths);
    if (!(await startOne(spec))) return;
    log(`${tag} Running as ${serviceAccountUser(du)} (the token of pod ${du.namespace}/${found.pod}, kubeconfig ${paths.kubeconfig})`);
    // A new DaemonSet pod (another UID) has its own volume: the mount follows it, as a new pod's would.
    while (!stopRequested) {
      await sleep(10_000);
      const now = !stopRequested && !existsSync(join(paths.mount, 'token')) ? findServiceAccountVolume(f.kubeletRoot, du.namespace, du.serviceAccount) : undefined;
      if (now && linkServiceAccountMount(paths.mount, now.dir)) log(`${tag} The ServiceAccount mount now follows pod ${du.namespace}/${now.pod}`);
    }
  };

  let ok = (await startOne(specs.containerd)) && !stopRequested && (await startOne(specs.kubelet));
  if (ok) {
    log('[kubelet-start] Waiting for the kubelet to perform the TLS Bootstrap');
    while (!stopRequested && !(existsSync(f.kubelet) && existsSync(f.kubeletClientPem))) {
      if (!sup.get('kubelet')) {
        process.stderr.write(`the kubelet exited before its TLS bootstrap:\n${sup.tail('kubelet')}\n`);
        ok = false;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  if (ok && !stopRequested) {
    ok = await startOne(specs.nats);
    if (ok) {
      // The node's agent: the dashboard's stop/start requests for its units reach it through the leaf node.
      agent = await startJoinedNodeAgent({ node: a.nodeName, root: f.root, natsUrl: `nats://127.0.0.1:${natsPort}`, log });
      log(`[nats] This node's nats-server is a leaf node of the cluster's (${cluster.leafnode}), with the kubelet's client certificate`);
      log(
        [
          '',
          'This node has joined the cluster:',
          '* Certificate signing request was sent to apiserver and a response was received.',
          '* The Kubelet was informed of the new secure connection details.',
          '',
          "Run 'kubectl get nodes' on the control-plane to see this node join the cluster.",
          '',
        ].join('\n'),
      );
      for (const du of JOINED_DAEMONSET_UNITS) void runAsDaemonSetPod(specs.daemonSets[du.unit], du);
    }
  }
  if (!ok && !stopRequested) {
    await sup.stopAll();
    return 1;
  }
  await stopped;
  return 0;
}
