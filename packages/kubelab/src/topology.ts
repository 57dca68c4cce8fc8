// What `kubelab up` runs and on which ports: the same services as the compose
// stack, as local processes on loopback. Ports keep the upstream defaults for
// node-1 and shift by 100 per further node so several nodes fit on one host.

import { isIP } from 'node:net';
import { join } from 'node:path';
import { leafNodeNatsUser, natsServerConfig, type NatsTlsFiles } from '@kubelab/nats';
import { PKI_FILES } from '@kubelab/pki';
import type { NodeUnitName } from '@kubelab/systemd';
import { BOOTSTRAP_KUBELET_CONF, BOOTSTRAP_TOKEN_FILE } from './bootstrap-token.js';
import { AUTHENTICATION_CONFIG_FILE } from './authentication-config.js';
import { ENCRYPTION_CONFIG_FILE } from './encryption-config.js';
import { REPO_ROOT } from './paths.js';
import { METRICS_SERVER_ARGS } from './metrics-server-addon.js';

/** kubeadm init's own node, where the control plane's static pods run (compose's node of the same name). */
export const CONTROL_PLANE_NODE = 'control-plane';
/** What kubeadm's mark-control-plane phase (and nodeRegistration.taints) puts on it. */
export const CONTROL_PLANE_TAINT = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' } as const;
export const CONTROL_PLANE_LABELS: Record<string, string> = { 'node-role.kubernetes.io/control-plane': '', 'node.kubernetes.io/exclude-from-external-load-balancers': '' };

/** The monitors upstream's DaemonSet manifest starts the Node Problem Detector with (its configs ship in the service's config/). */
const NPD_CONFIG_DIR = join(REPO_ROOT, 'services', 'node-problem-detector', 'config');
const NPD_SYSTEM_LOG_MONITORS = ['kernel-monitor.json', 'readonly-monitor.json', 'systemd-monitor.json'];
const NPD_CUSTOM_PLUGIN_MONITORS = ['systemd-monitor-counter.json', 'health-checker-kubelet.json', 'health-checker-containerd.json'];

/** The Node Problem Detector's monitor flags on every node (`kubelab up`'s and a joined one's): upstream's monitors, from the service's config/. */
export function npdMonitorArgs(): string[] {
  return [
    `--config.system-log-monitor=${NPD_SYSTEM_LOG_MONITORS.map((f) => join(NPD_CONFIG_DIR, f)).join(',')}`,
    `--config.custom-plugin-monitor=${NPD_CUSTOM_PLUGIN_MONITORS.map((f) => join(NPD_CONFIG_DIR, f)).join(',')}`,
  ];
}

export interface Ports {
  nats: number;
  natsMonitor: number;
  apiserver: number;
  apiserverGrpc: number;
  scheduler: number;
  controllerManager: number;
  /** metrics-server's --secure-port (its pre-0.5 default, clear of the nodes' ports). */
  metricsServer: number;
  /** The dashboard's HTTP port (services/dashboard). */
  dashboard: number;
  /** The dashboard's OTLP/gRPC trace receiver: where the components export when tracing is on (defaultTracingEndpoint). */
  dashboardOtlp: number;
  /** NATS's leafnode port (its default 7422): the nats-servers of nodes on other machines (`kubelab join`). */
  natsLeafnode: number;
}

export const DEFAULT_PORTS: Ports = {
  nats: 4222,
  natsMonitor: 8222,
  apiserver: 6443,
  apiserverGrpc: 6444,
  scheduler: 10259,
  controllerManager: 10257,
  metricsServer: 4443,
  dashboard: 9090,
  // Not OTLP's 4317: a collector of the user's own (Jaeger) may hold that one on this host.
  dashboardOtlp: 9317,
  natsLeafnode: 7422,
};

export interface NodePorts {
  kubelet: number;
  kubeletHealthz: number;
  kubeProxyHealthz: number;
  kubeProxyMetrics: number;
  containerdHealth: number;
  npd: number;
  npdMetrics: number;
  /** kube-network-policies' --metrics-bind-address port (upstream :9080): /metrics, /healthz, /rules. */
  netpol: number;
}

/**
 * The control-plane node's ports: node-1's moved by 20, into the gap every
 * node stride leaves (x70-x89), so they collide with no worker of this or a
 * neighbouring --port-offset.
 */
export function controlPlaneNodePorts(offset = 0): NodePorts {
  return nodePorts(1, offset + 20);
}

/** Every control-plane port moved by `offset` (`kubelab up --port-offset`: a second cluster beside the first). */
export function controlPlanePorts(offset = 0): Ports {
  return Object.fromEntries(Object.entries(DEFAULT_PORTS).map(([k, v]) => [k, v + offset])) as unknown as Ports;
}

/** node index 1..N → its ports (node-1 gets the upstream defaults, moved by `offset`). */
export function nodePorts(index: number, offset = 0): NodePorts {
  const off = (index - 1) * 100 + offset;
  return {
    kubelet: 10250 + off,
    kubeletHealthz: 10248 + off,
    kubeProxyHealthz: 10256 + off,
    kubeProxyMetrics: 10249 + off,
    containerdHealth: 10260 + off,
    // The Node Problem Detector's --port and --prometheus-port: upstream's 20256 and 20257, kept
    // beside the node's other ports so that --port-offset and the node stride move them alike.
    npd: 10266 + off,
    npdMetrics: 10267 + off,
    // Past the control-plane node's gap (x68-x87), clear of every node's other ports.
    netpol: 10290 + off,
  };
}

/** A process the runner starts; named like the compose service. */
export interface ComponentSpec {
  name: string;
  /** Folder under services/ holding dist/main.js; 'nats' runs nats-server. */
  service: string;
  args: string[];
  /** HTTP(S) health URL polled before the next component starts (HTTPS trusts the cluster CA). */
  health?: string;
  /** The health URL's certificate is self-signed (the scheduler's and controller-manager's secure ports): not verified, as kubeadm's HTTPS probes. */
  insecureHealth?: boolean;
  /** A node's systemd unit (containerd, kubelet, kube-proxy): run by @kubelab/systemd's manager under the node root. */
  unit?: { node: string; root: string; name: NodeUnitName };
  /** Environment besides the runner's (what a DaemonSet manifest sets, e.g. the NPD's KUBELET_PORT). */
  env?: Record<string, string>;
  /** The process's nice value (absent: the runner's): below the control plane's share of the CPU where it stands for other machines. */
  nice?: number;
}

/**
 * The state dir plays /etc/kubernetes (kubeadm's file names, see @kubelab/pki);
 * each node's folder plays that node's /etc/kubernetes for its kubelet.conf.
 */
export function kubeadmFiles(layout: Layout) {
  const at = (rel: string) => join(layout.stateDir, rel);
  return {
    caCert: at('pki/ca.crt'),
    caKey: at('pki/ca.key'),
    apiserverCert: at('pki/apiserver.crt'),
    apiserverKey: at('pki/apiserver.key'),
    apiserverKubeletClientCert: at('pki/apiserver-kubelet-client.crt'),
    apiserverKubeletClientKey: at('pki/apiserver-kubelet-client.key'),
    saKey: at('pki/sa.key'),
    saPub: at('pki/sa.pub'),
    admin: at('admin.conf'),
    scheduler: at('scheduler.conf'),
    controllerManager: at('controller-manager.conf'),
    kubeProxy: at('kube-proxy.conf'),
    /** The Node Problem Detector's identity (its ServiceAccount's, see npd-addon.ts). */
    nodeProblemDetector: at('node-problem-detector.conf'),
    /** The NetworkPolicy agent's identity (its ServiceAccount's, see network-policy-addon.ts). */
    networkPolicies: at('kube-network-policies.conf'),
    /** metrics-server's identity (its ServiceAccount's, see metrics-server-addon.ts). */
    metricsServer: at('metrics-server.conf'),
    /** The dashboard's identity (its ServiceAccount's, see dashboard-addon.ts). */
    dashboard: at('kubelab-dashboard.conf'),
    frontProxyCa: at(`${PKI_FILES.frontProxyCa}.crt`),
    frontProxyClientCert: at(`${PKI_FILES.frontProxyClient}.crt`),
    frontProxyClientKey: at(`${PKI_FILES.frontProxyClient}.key`),
    kubelet: (node: string) => join(nodeDir(layout, node), 'kubelet.conf'),
    bootstrapKubelet: (node: string) => join(nodeDir(layout, node), BOOTSTRAP_KUBELET_CONF),
    bootstrapToken: at(BOOTSTRAP_TOKEN_FILE),
    /** NATS's leafnode serving certificate, from the cluster CA (what a joining node trusts after discovery). */
    natsLeafnodeCert: at(`${NATS_LEAFNODE_CERT}.crt`),
    natsLeafnodeKey: at(`${NATS_LEAFNODE_CERT}.key`),
    etcdCa: at(`${PKI_FILES.etcdCa}.crt`),
    etcdServerCert: at(`${PKI_FILES.etcdServer}.crt`),
    etcdServerKey: at(`${PKI_FILES.etcdServer}.key`),
    apiserverEtcdClientCert: at(`${PKI_FILES.apiserverEtcdClient}.crt`),
    apiserverEtcdClientKey: at(`${PKI_FILES.apiserverEtcdClient}.key`),
  };
}

/**
 * Client certificates of the etcd CA for NATS besides kubeadm's, relative to
 * the state dir: the CLI's (beside kubeadm's etcd/healthcheck-client) and, in
 * each node's folder, its runtime's.
 */
export const NATS_CLIENT_FILES = {
  trace: 'pki/etcd/trace-client',
  admin: 'pki/etcd/admin-client',
  scheduler: 'pki/etcd/scheduler-client',
  /** The dashboard's (kubelab:dashboard: the records, and the nodes' control requests). */
  dashboard: 'pki/etcd/dashboard-client',
  containerd: 'pki/containerd-nats-client',
  /** A node's agent (kubelab:node-agent:<node>), beside its runtime's in the node folder. */
  nodeAgent: 'pki/node-agent-nats-client',
  /** A node's kube-proxy (kubelab:kube-proxy:<node>: its sync records). */
  kubeProxy: 'pki/kube-proxy-nats-client',
} as const;

/** The TLS files a NATS client of the local cluster presents (`node` for a runtime, or with `component` its kube-proxy; `agent` for a node's agent; relative to its node folder). */
export function natsClientFiles(stateDir: string, who: 'trace' | 'admin' | 'scheduler' | 'dashboard' | { node: string; component?: 'containerd' | 'kube-proxy' } | { agent: string }): NatsTlsFiles {
  const base =
    typeof who === 'string'
      ? join(stateDir, NATS_CLIENT_FILES[who])
      : 'node' in who
        ? join(stateDir, 'nodes', who.node, who.component === 'kube-proxy' ? NATS_CLIENT_FILES.kubeProxy : NATS_CLIENT_FILES.containerd)
        : join(stateDir, 'nodes', who.agent, NATS_CLIENT_FILES.nodeAgent);
  return { caFile: join(stateDir, `${PKI_FILES.etcdCa}.crt`), certFile: `${base}.crt`, keyFile: `${base}.key` };
}

/** --apiserver-advertise-address: an IPv4 address (kubeadm refuses the unspecified and loopback ones too). */
export function checkAdvertiseAddress(value: string | undefined): string {
  const v = value ?? '';
  if (isIP(v) !== 4) throw new Error(`--apiserver-advertise-address: couldn't use "${v}" as "apiserver-advertise-address", must be ipv4 or ipv6 address`);
  if (v === '0.0.0.0' || v.startsWith('127.')) throw new Error(`--apiserver-advertise-address: "${v}" is not an address other machines can reach`);
  return v;
}

/** In the state dir: NATS's leafnode serving certificate (cluster CA). */
export const NATS_LEAFNODE_CERT = 'pki/nats-leafnode';

export interface Layout {
  stateDir: string;
  /**
   * kubeadm init's --apiserver-advertise-address: the address nodes on other
   * machines reach the apiserver and NATS's leafnode port at (the apiserver
   * then listens on every address, as kubeadm's). Unset: loopback only.
   */
  advertiseAddress?: string;
  nodes: number;
  /** Added to every port, the nodes' included (0: the upstream defaults). */
  portOffset: number;
  ports: Ports;
}

/** What `kubelab rules` and `kubelab trace` read to find a running local cluster (`<state-dir>/cluster.json`). */
export interface ClusterInfo {
  natsUrl: string;
  server: string;
  portOffset: number;
  /** --apiserver-advertise-address: where nodes of other machines join (`kubelab token create --print-join-command`). */
  advertiseAddress?: string;
}

export function clusterInfo(layout: Layout): ClusterInfo {
  return {
    natsUrl: `nats://127.0.0.1:${layout.ports.nats}`,
    server: `https://127.0.0.1:${layout.ports.apiserver}`,
    portOffset: layout.portOffset,
    ...(layout.advertiseAddress ? { advertiseAddress: layout.advertiseAddress } : {}),
  };
}

/**
 * The flags the runner itself sets on each service (ports, addresses, paths:
 * the wiring of the local topology). A user's value for one of them would
 * break the wiring, so `kubelab up` refuses it and offers --port-offset.
 */
export function runnerFlags(specs: ComponentSpec[]): Map<string, Set<string>> {
  const bySvc = new Map<string, Set<string>>();
  for (const s of specs) {
    if (s.service === 'nats') continue;
    const set = bySvc.get(s.service) ?? new Set<string>();
    for (const a of s.args) if (a.startsWith('--')) set.add(a.slice(2).split('=')[0]!);
    bySvc.set(s.service, set);
  }
  return bySvc;
}

const TRACING_ENDPOINT_ENV = ['KUBELAB_TRACING_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT'];

/**
 * Tracing is on when `kubelab up` is given `--tracing-sampling-rate-per-million`;
 * without an endpoint of the user's own (`--tracing-endpoint`, or the
 * environment's) the components then export to the dashboard's OTLP/gRPC
 * receiver. Returns the component args with `--tracing-endpoint` added, and
 * the endpoint chosen (undefined: left as given).
 */
export function defaultTracingEndpoint(args: readonly string[], ports: Pick<Ports, 'dashboardOtlp'>, env: NodeJS.ProcessEnv = process.env): { args: string[]; endpoint?: string } {
  const named = (flag: string) => args.some((a) => a === `--${flag}` || a.startsWith(`--${flag}=`));
  if (!named('tracing-sampling-rate-per-million') || named('tracing-endpoint') || TRACING_ENDPOINT_ENV.some((k) => env[k]?.trim())) return { args: [...args] };
  const endpoint = `127.0.0.1:${ports.dashboardOtlp}`;
  return { args: [...args, `--tracing-endpoint=${endpoint}`], endpoint };
}

export function nodeDir(layout: Pick<Layout, 'stateDir'>, node: string): string {
  return join(layout.stateDir, 'nodes', node);
}

/** The node's `/` for its tools (KUBELAB_NODE_ROOT): journal, unit state, control sockets. */
export function nodeRoot(layout: Pick<Layout, 'stateDir'>, node: string): string {
  return join(nodeDir(layout, node), 'root');
}

/** containerd's socket at its kubeadm-node path under the node root, where the node's crictl and NPD look. */
export function criSocket(layout: Layout, node: string): string {
  return join(nodeRoot(layout, node), 'run', 'containerd', 'containerd.sock');
}

/** The apiserver's --component-status-url flags where the components' ports are not upstream's (none at offset 0: its defaults are right). */
function componentStatusUrls(ports: Ports): string[] {
  if (ports.scheduler === DEFAULT_PORTS.scheduler && ports.controllerManager === DEFAULT_PORTS.controllerManager) return [];
  return [`--component-status-url=scheduler=https://127.0.0.1:${ports.scheduler}/healthz`, `--component-status-url=controller-manager=https://127.0.0.1:${ports.controllerManager}/healthz`];
}

/** The control plane, then per node (control-plane first): containerd, kubelet, kube-proxy, node-problem-detector. */
export function components(layout: Layout): ComponentSpec[] {
  const { ports } = layout;
  const files = kubeadmFiles(layout);
  const nats = `nats://127.0.0.1:${ports.nats}`;
  const grpc = `127.0.0.1:${ports.apiserverGrpc}`;
  const schedulerNats = natsClientFiles(layout.stateDir, 'scheduler');
  const list: ComponentSpec[] = [
    {
      name: 'nats',
      service: 'nats',
      args: ['-c', join(layout.stateDir, 'nats.conf')],
      health: `http://127.0.0.1:${ports.natsMonitor}/healthz`,
    },
    {
      name: 'apiserver',
      service: 'apiserver',
      args: [
        ...(layout.advertiseAddress ? ['--bind-address=0.0.0.0', `--advertise-address=${layout.advertiseAddress}`] : ['--bind-address=127.0.0.1']),
        `--secure-port=${ports.apiserver}`,
        `--grpc-port=${ports.apiserverGrpc}`,
        `--nats-url=${nats}`,
        `--etcd-cafile=${files.etcdCa}`,
        `--etcd-certfile=${files.apiserverEtcdClientCert}`,
        `--etcd-keyfile=${files.apiserverEtcdClientKey}`,
        `--tls-cert-file=${files.apiserverCert}`,
        `--tls-private-key-file=${files.apiserverKey}`,
        `--client-ca-file=${files.caCert}`,
        `--kubelet-client-certificate=${files.apiserverKubeletClientCert}`,
        `--kubelet-client-key=${files.apiserverKubeletClientKey}`,
        // kubeadm's authorization and token settings.
        '--authorization-mode=Node,RBAC',
        '--enable-bootstrap-token-auth=true',
        `--service-account-signing-key-file=${files.saKey}`,
        `--service-account-key-file=${files.saPub}`,
        // Secrets encrypted at rest by default; `kubelab up` writes the file on first start.
        `--encryption-provider-config=${join(layout.stateDir, ENCRYPTION_CONFIG_FILE)}`,
        // Anonymous requests only on the health and version paths, 401 elsewhere (kubeadm init writes it).
        `--authentication-config=${join(layout.stateDir, AUTHENTICATION_CONFIG_FILE)}`,
        // Pod ports live inside the local runtimes (no pod network): pods/ and services/proxy go through the kubelets.
        '--pod-network-mode=kubelet-tunnel',
        // `kubectl get componentstatuses` probes this cluster's scheduler and controller-manager (upstream's ports moved by --port-offset).
        ...componentStatusUrls(ports),
        // kubeadm's aggregation layer: the front-proxy client towards extension apiservers, and the requestheader settings they trust.
        `--proxy-client-cert-file=${files.frontProxyClientCert}`,
        `--proxy-client-key-file=${files.frontProxyClientKey}`,
        `--requestheader-client-ca-file=${files.frontProxyCa}`,
        '--requestheader-allowed-names=front-proxy-client',
        '--requestheader-extra-headers-prefix=X-Remote-Extra-',
        '--requestheader-group-headers=X-Remote-Group',
        '--requestheader-username-headers=X-Remote-User',
      ],
      health: `https://127.0.0.1:${ports.apiserver}/readyz`,
    },
    {
      name: 'scheduler',
      service: 'scheduler',
      args: [
        `--apiserver-grpc-address=${grpc}`,
        `--kubeconfig=${files.scheduler}`,
        // As kubeadm: the secure port's TokenReviews and SubjectAccessReviews with the scheduler's own identity.
        `--authentication-kubeconfig=${files.scheduler}`,
        `--authorization-kubeconfig=${files.scheduler}`,
        '--bind-address=127.0.0.1',
        `--secure-port=${ports.scheduler}`,
        // kubelab: each cycle's decision record on NATS (kubelab.sched.<namespace>.<pod>), as kubelab:scheduler.
        `--nats-url=${nats}`,
        `--nats-ca-file=${schedulerNats.caFile}`,
        `--nats-cert-file=${schedulerNats.certFile}`,
        `--nats-key-file=${schedulerNats.keyFile}`,
      ],
      health: `https://127.0.0.1:${ports.scheduler}/healthz`,
      insecureHealth: true,
    },
    {
      name: 'controller-manager',
      service: 'controller-manager',
      args: [
        `--apiserver-grpc-address=${grpc}`,
        `--kubeconfig=${files.controllerManager}`,
        `--authentication-kubeconfig=${files.controllerManager}`,
        `--authorization-kubeconfig=${files.controllerManager}`,
        '--bind-address=127.0.0.1',
        `--secure-port=${ports.controllerManager}`,
        // As kubeadm: each controller writes as its own ServiceAccount; the root CA and the token signing key.
        '--use-service-account-credentials=true',
        `--root-ca-file=${files.caCert}`,
        `--service-account-private-key-file=${files.saKey}`,
        // The csrsigning controller issues with the cluster CA, as kubeadm configures it.
        `--cluster-signing-cert-file=${files.caCert}`,
        `--cluster-signing-key-file=${files.caKey}`,
        // kubeadm's *,bootstrapsigner,tokencleaner: cluster-info signed with each token (what `kubelab join` checks), expired tokens deleted.
        '--controllers=*,bootstrapsigner,tokencleaner',
      ],
      health: `https://127.0.0.1:${ports.controllerManager}/healthz`,
      insecureHealth: true,
    },
  ];
  // metrics-server, the Deployment's process (metrics-server-addon.ts); kubeadm's kubelets serve self-signed certificates, hence --kubelet-insecure-tls as on kind.
  list.push({
    name: 'metrics-server',
    service: 'metrics-server',
    args: [
      `--apiserver-grpc-address=${grpc}`,
      `--kubeconfig=${files.metricsServer}`,
      '--bind-address=127.0.0.1',
      `--secure-port=${ports.metricsServer}`,
      ...METRICS_SERVER_ARGS,
      '--kubelet-insecure-tls',
    ],
  });
  // The dashboard: watches as its ServiceAccount (dashboard-addon.ts), the records and the nodes' control requests as kubelab:dashboard.
  const trace = natsClientFiles(layout.stateDir, 'dashboard');
  list.push({
    name: 'dashboard',
    service: 'dashboard',
    args: [
      `--apiserver-grpc-address=${grpc}`,
      `--kubeconfig=${files.dashboard}`,
      '--bind-address=127.0.0.1',
      `--port=${ports.dashboard}`,
      `--otlp-grpc-port=${ports.dashboardOtlp}`,
      `--nats-url=${nats}`,
      `--nats-ca-file=${trace.caFile}`,
      `--nats-cert-file=${trace.certFile}`,
      `--nats-key-file=${trace.keyFile}`,
    ],
    health: `http://127.0.0.1:${ports.dashboard}/healthz`,
  });
  list.push(...nodeComponents(layout, CONTROL_PLANE_NODE, 'control-plane', controlPlaneNodePorts(layout.portOffset)));
  for (let i = 1; i <= layout.nodes; i++) list.push(...nodeComponents(layout, `node-${i}`, String(i), nodePorts(i, layout.portOffset)));
  return list;
}

/**
 * One node's units: containerd, kubelet, kube-proxy, the Node Problem
 * Detector. The control-plane node is kubeadm init's own (its kubelet.conf
 * is written, no bootstrap), registers with kubeadm's taint and runs the
 * static pods from <root>/etc/kubernetes/manifests; the workers join.
 */
function nodeComponents(layout: Layout, node: string, suffix: string, p: NodePorts): ComponentSpec[] {
  const files = kubeadmFiles(layout);
  const grpc = `127.0.0.1:${layout.ports.apiserverGrpc}`;
  const nats = `nats://127.0.0.1:${layout.ports.nats}`;
  const controlPlane = node === CONTROL_PLANE_NODE;
  const dir = nodeDir(layout, node);
  const sock = criSocket(layout, node);
  const natsTls = natsClientFiles(layout.stateDir, { node });
  const proxyNatsTls = natsClientFiles(layout.stateDir, { node, component: 'kube-proxy' });
  const unit = (name: NodeUnitName) => ({ node, root: nodeRoot(layout, node), name });
  return [
    {
      name: `containerd-${suffix}`,
      service: 'containerd',
      args: [
        `--node-name=${node}`,
        `--address=${sock}`,
        `--root=${join(dir, 'containerd')}`,
        `--health-port=${p.containerdHealth}`,
        `--nats-url=${nats}`,
        `--nats-ca-file=${natsTls.caFile}`,
        `--nats-cert-file=${natsTls.certFile}`,
        `--nats-key-file=${natsTls.keyFile}`,
        // No pod network on the host: connects are translated at connect time through the node's socket-LB maps (docs/architecture.md).
        `--socket-lb-dir=${socketLbDir(layout, node)}`,
      ],
      health: `http://127.0.0.1:${p.containerdHealth}/healthz`,
      unit: unit('containerd'),
    },
    {
      name: `kubelet-${suffix}`,
      service: 'kubelet',
      args: [
        `--hostname-override=${node}`,
        '--node-ip=127.0.0.1',
        '--address=127.0.0.1',
        `--apiserver-grpc-address=${grpc}`,
        // As after `kubeadm join`: the bootstrap token asks for the node's certificate, written to <root-dir>/pki and --kubeconfig.
        // kubeadm init's own node has its kubelet.conf from the start.
        ...(controlPlane ? [] : [`--bootstrap-kubeconfig=${files.bootstrapKubelet(node)}`]),
        `--kubeconfig=${files.kubelet(node)}`,
        // kubeadm's kubelet: the apiserver's client certificate (and any other from the cluster CA) authenticates.
        `--client-ca-file=${files.caCert}`,
        `--container-runtime-endpoint=unix://${sock}`,
        `--port=${p.kubelet}`,
        `--healthz-port=${p.kubeletHealthz}`,
        `--root-dir=${join(dir, 'kubelet')}`,
        // kubeadm's staticPodPath; the control-plane node's holds the four static pods (control-plane-node.ts).
        `--pod-manifest-path=${staticPodPath(layout, node)}`,
        // kubeadm's nodeRegistration.taints of an init node, set at registration so no pod lands before mark-control-plane.
        ...(controlPlane ? [`--register-with-taints=${CONTROL_PLANE_TAINT.key}:${CONTROL_PLANE_TAINT.effect}`] : []),
        `--pod-logs-dir=${join(dir, 'pods')}`,
        // kubeadm's KubeletConfiguration: rotateCertificates: true (renewed into <root-dir>/pki).
        '--rotate-certificates',
        // kubeadm's KubeletConfiguration: clusterDNS (the kube-dns Service, the service range's tenth address) and clusterDomain.
        '--cluster-dns=10.96.0.10',
        '--cluster-domain=cluster.local',
        // As most distributions run the kubelet: its log shows SyncLoop ADD/UPDATE/DELETE and container kills.
        '--v=2',
      ],
      unit: unit('kubelet'),
    },
    {
      name: `kube-proxy-${suffix}`,
      service: 'kube-proxy',
      args: [
        `--hostname-override=${node}`,
        `--apiserver-grpc-address=${grpc}`,
        `--kubeconfig=${files.kubeProxy}`,
        // Local nodes share the host's network namespace: render the rules, never apply them there.
        '--apply=never',
        // ... and programs the runtime's connect-time translation instead: its Service map.
        `--socket-lb-dir=${socketLbDir(layout, node)}`,
        `--healthz-bind-address=127.0.0.1:${p.kubeProxyHealthz}`,
        `--metrics-bind-address=127.0.0.1:${p.kubeProxyMetrics}`,
        // A record of each rules sync on kubelab.proxy.<node> (the dashboard's flow), as kubelab:kube-proxy:<node>.
        `--nats-url=${nats}`,
        `--nats-ca-file=${proxyNatsTls.caFile}`,
        `--nats-cert-file=${proxyNatsTls.certFile}`,
        `--nats-key-file=${proxyNatsTls.keyFile}`,
      ],
      unit: unit('kube-proxy'),
    },
    {
      name: `node-problem-detector-${suffix}`,
      service: 'node-problem-detector',
      args: [
        `--hostname-override=${node}`,
        `--apiserver-grpc-address=${grpc}`,
        `--kubeconfig=${files.nodeProblemDetector}`,
        ...npdMonitorArgs(),
        '--address=127.0.0.1',
        `--port=${p.npd}`,
        '--prometheus-address=127.0.0.1',
        `--prometheus-port=${p.npdMetrics}`,
      ],
      // The DaemonSet's env: the health checker finds this node's kubelet healthz here.
      env: { HOST_ADDRESS: '127.0.0.1', KUBELET_PORT: String(p.kubeletHealthz) },
      unit: unit('node-problem-detector'),
    },
    {
      name: `kube-network-policies-${suffix}`,
      service: 'kube-network-policies',
      args: [
        `--hostname-override=${node}`,
        `--apiserver-grpc-address=${grpc}`,
        `--kubeconfig=${files.networkPolicies}`,
        // As kube-proxy: local nodes share the host's network namespace, so the policy chains are rendered, never applied;
        // the resolved allow lists go to the socket-LB directory, where the runtime's connect hook enforces them.
        '--apply=never',
        `--socket-lb-dir=${socketLbDir(layout, node)}`,
        `--metrics-bind-address=127.0.0.1:${p.netpol}`,
      ],
      unit: unit('kube-network-policies'),
    },
  ];
}

/** The node's socket-LB maps (pods.json from containerd, services.json from kube-proxy, policies.json from kube-network-policies): /run/kubelab/socket-lb under the node root. */
export function socketLbDir(layout: Pick<Layout, 'stateDir'>, node: string): string {
  return join(nodeRoot(layout, node), 'run', 'kubelab', 'socket-lb');
}

/** The node names of a layout: control-plane, then the workers node-1 … node-N. */
export function nodeNames(layout: Pick<Layout, 'nodes'>): string[] {
  return [CONTROL_PLANE_NODE, ...workerNames(layout)];
}

/** The worker nodes (node-1 … node-N), which join with the bootstrap token. */
export function workerNames(layout: Pick<Layout, 'nodes'>): string[] {
  return Array.from({ length: layout.nodes }, (_, i) => `node-${i + 1}`);
}

/** The kubelet's staticPodPath: /etc/kubernetes/manifests under the node root, as on a kubeadm node. */
export function staticPodPath(layout: Pick<Layout, 'stateDir'>, node: string): string {
  return join(nodeRoot(layout, node), 'etc', 'kubernetes', 'manifests');
}

/**
 * nats-server's configuration (@kubelab/nats, the compose stack's too):
 * loopback only, TLS with kubeadm's etcd server certificate, a user per
 * client certificate of the etcd CA, JetStream in the state dir.
 */
export function natsConfig(layout: Layout, joinedNodes: readonly string[] = []): string {
  const files = kubeadmFiles(layout);
  return natsServerConfig({
    listen: `127.0.0.1:${layout.ports.nats}`,
    monitor: `127.0.0.1:${layout.ports.natsMonitor}`,
    storeDir: join(layout.stateDir, 'nats'),
    tls: { certFile: files.etcdServerCert, keyFile: files.etcdServerKey, caFile: files.etcdCa },
    nodes: nodeNames(layout),
    // Nodes on other machines (`kubelab join`): their leaf connections, admitted once their kubelet's certificate is issued (leaf-admission.ts).
    leafnodes: {
      listen: `${layout.advertiseAddress ?? '127.0.0.1'}:${layout.ports.natsLeafnode}`,
      tls: { certFile: files.natsLeafnodeCert, keyFile: files.natsLeafnodeKey, caFile: files.caCert },
    },
    extraUsers: joinedNodes.map(leafNodeNatsUser),
  });
}
