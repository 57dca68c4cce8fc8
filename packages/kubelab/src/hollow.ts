// `kubelab up --hollow`: the worker nodes as hollow nodes (services/kubemark),
// a few hundred real kubelets with their simulated runtimes per process,
// instead of five processes per node. The control plane and the
// control-plane node stay as they are.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DaemonSet, Deployment, NodeSelectorTerm } from '@kubelab/api';
import { CertificateAuthority, ensureKubeconfig, kubeletIdentity } from '@kubelab/pki';
import { BOOTSTRAP_KUBELET_CONF, BOOTSTRAP_TOKEN_FILE, ensureBootstrapKubeletConf, keptToken } from './bootstrap-token.js';
import { kubeadmFiles, type ComponentSpec, type Layout } from './topology.js';

/** Most hollow nodes one runner starts: with the control-plane node they fit the pod range 10.244.0.0/16 at a /26 each (1,024 nodes). */
export const MAX_HOLLOW_NODES = 1000;
/** The workers' nice value: the control plane first when the machine's cores are all busy. */
export const HOLLOW_NICE = 5;

/**
 * Hollow nodes per worker process (kubemark's scale runs keep one hollow node per pod; here a process holds this many).
 * 1,000 nodes in two workers of 500 took 87–116 s of the workers' CPU against 117–143 s in four of 250, alternated four
 * times (fewer processes contending for two cores); one worker of 1,000 held the nodes to one core (Ready after 165 s).
 */
export const HOLLOW_NODES_PER_WORKER = 500;
/** The containerd streaming port of the hollow nodes (containerd's documented stream_server_port), moved by --port-offset. */
export const HOLLOW_STREAM_PORT = 10010;

/** The worker node names node-1 … node-N, as the process nodes are named. */
export function hollowNodeNames(nodes: number): string[] {
  return Array.from({ length: nodes }, (_, i) => `node-${i + 1}`);
}

/** The label every hollow node registers with (the workers' --node-labels), so that add-ons can keep off them. */
export const HOLLOW_NODE_LABEL = 'kubelab.io/hollow-node';

/**
 * A node add-on's DaemonSet (or a system Deployment) as a cluster with hollow
 * nodes applies it: kept off the hollow nodes. Upstream kubemark's hollow-node
 * pod runs its own hollow-proxy and node-problem-detector beside the hollow
 * kubelet, so the real nodes' kube-proxy and NPD DaemonSets do not run on
 * hollow nodes; here a stand-in pod there would stand for a process that
 * does not exist, and a CoreDNS pod there would answer no one (a hollow
 * node's pods reach only themselves). A user's workloads still run on them.
 */
export function offHollowNodes<T extends DaemonSet | Deployment>(workload: T): T {
  const notHollow: NonNullable<NodeSelectorTerm['matchExpressions']>[number] = { key: HOLLOW_NODE_LABEL, operator: 'DoesNotExist' };
  const pod = workload.spec!.template.spec!;
  const required = pod.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  // Required terms are ORed: each one gains the expression.
  const terms = required?.nodeSelectorTerms.length
    ? required.nodeSelectorTerms.map((t) => ({ ...t, matchExpressions: [...(t.matchExpressions ?? []), notHollow] }))
    : [{ matchExpressions: [notHollow] }];
  const affinity = { ...pod.affinity, nodeAffinity: { ...pod.affinity?.nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } };
  return { ...workload, spec: { ...workload.spec!, template: { ...workload.spec!.template, spec: { ...pod, affinity } } } };
}

/** The shared bootstrap kubeconfig of the hollow nodes (one `kubeadm join` token for all). */
export function hollowBootstrapConf(layout: Pick<Layout, 'stateDir'>): string {
  return join(layout.stateDir, 'nodes', BOOTSTRAP_KUBELET_CONF);
}

/**
 * V8's young generation for a worker (MiB per semi-space; Node's default is
 * 16): hundreds of kubelets and runtimes allocate short-lived objects for
 * every gRPC call, and a small young generation scavenges them (and promotes
 * survivors) several times as often.
 */
export const HOLLOW_SEMI_SPACE_MIB = 32;

/** Hollow nodes whose kubelet.conf is written at once. */
const ISSUE_BATCH = 50;

/** Where a hollow cluster's node identities come from and go. */
export interface HollowIdentities {
  /** The cluster CA (pki/ca.crt, pki/ca.key). */
  caCertFile: string;
  caKeyFile: string;
  /** kubeadm init's bootstrap-token.json. */
  tokenFile: string;
  /** The apiserver URL written into the kubeconfigs. */
  server: string;
  /** Each node's folder is <nodesDir>/<name>; bootstrap-kubelet.conf goes into nodesDir. */
  nodesDir: string;
  names: readonly string[];
}

/**
 * Each hollow node's kubelet.conf with its own system:node:<name> client
 * certificate from the cluster CA (ECDSA P-256, kept when present), as
 * kubemark hands its hollow nodes a ready kubeconfig (a thousand TLS
 * bootstraps at once would each be a CSR round trip through the apiserver
 * and the controller-manager); and the bootstrap-kubelet.conf of kubeadm
 * init's token, which a node whose kubelet.conf is removed joins with.
 */
export async function writeHollowIdentities(o: HollowIdentities): Promise<void> {
  const kept = keptToken(readFileSync(o.tokenFile, 'utf8'));
  if (!kept) throw new Error(`no bootstrap token in ${o.tokenFile}`);
  const caPem = readFileSync(o.caCertFile, 'utf8');
  await ensureBootstrapKubeletConf(join(o.nodesDir, BOOTSTRAP_KUBELET_CONF), o.server, caPem, kept.token);
  const ca = await CertificateAuthority.fromPem(caPem, readFileSync(o.caKeyFile, 'utf8'));
  for (let i = 0; i < o.names.length; i += ISSUE_BATCH) {
    await Promise.all(
      o.names.slice(i, i + ISSUE_BATCH).map((name) => ensureKubeconfig(join(o.nodesDir, name, 'kubelet.conf'), ca, kubeletIdentity(name), { server: o.server, algorithm: 'ECDSA-P256' })),
    );
  }
}

/** After kubeadmInit: the hollow nodes' identities in the state dir (writeHollowIdentities). */
export async function prepareHollowNodes(layout: Layout, nodes: number): Promise<void> {
  const files = kubeadmFiles(layout);
  await writeHollowIdentities({
    caCertFile: files.caCert,
    caKeyFile: files.caKey,
    tokenFile: join(layout.stateDir, BOOTSTRAP_TOKEN_FILE),
    server: `https://127.0.0.1:${layout.ports.apiserver}`,
    nodesDir: join(layout.stateDir, 'nodes'),
    names: hollowNodeNames(nodes),
  });
}

/**
 * Worker w (0-based) of `workers` when `total` nodes are split evenly: its first node number and count
 * (services/kubemark's workerRange; not imported, so the CLI does not carry the kubelet and the runtime).
 */
function workerRange(total: number, workers: number, w: number): { first: number; count: number } {
  const base = Math.floor(total / workers);
  const extra = total % workers;
  return { first: w * base + Math.min(w, extra) + 1, count: base + (w < extra ? 1 : 0) };
}

/** The worker processes: hollow-node-1 … hollow-node-W, each a range of about HOLLOW_NODES_PER_WORKER nodes. */
export function hollowComponents(layout: Layout, nodes: number): ComponentSpec[] {
  const files = kubeadmFiles(layout);
  const workers = Math.ceil(nodes / HOLLOW_NODES_PER_WORKER);
  const specs: ComponentSpec[] = [];
  for (let w = 0; w < workers; w++) {
    const { first, count } = workerRange(nodes, workers, w);
    specs.push({
      name: `hollow-node-${w + 1}`,
      service: 'kubemark',
      // Kubemark's hollow nodes run on machines of their own; here they share the control plane's cores, and at the
      // same priority four busy workers held the apiserver to about a third of a core (the controllers' Lease renewals timed out).
      nice: HOLLOW_NICE,
      env: { NODE_OPTIONS: [process.env.NODE_OPTIONS, `--max-semi-space-size=${HOLLOW_SEMI_SPACE_MIB}`].filter(Boolean).join(' ') },
      args: [
        `--apiserver-grpc-address=127.0.0.1:${layout.ports.apiserverGrpc}`,
        `--first=${first}`,
        `--count=${count}`,
        `--nodes-dir=${join(layout.stateDir, 'nodes')}`,
        `--bootstrap-kubeconfig=${hollowBootstrapConf(layout)}`,
        `--client-ca-file=${files.caCert}`,
        // Every hollow node has its own loopback address: one port for all, as on a real cluster.
        `--port=${10250 + layout.portOffset}`,
        `--stream-server-port=${HOLLOW_STREAM_PORT + layout.portOffset}`,
        '--cluster-dns=10.96.0.10',
        '--cluster-domain=cluster.local',
        `--node-labels=${HOLLOW_NODE_LABEL}=true`,
        // `kubelab hollow stop|start|status` (hollow-command.ts).
        `--control-socket=${hollowControlSocket(layout, w + 1)}`,
      ],
    });
  }
  return specs;
}

/** Worker w's (1-based) control socket, beside the runner's pid files. */
export function hollowControlSocket(layout: Pick<Layout, 'stateDir'>, w: number): string {
  return join(layout.stateDir, 'run', `hollow-node-${w}.sock`);
}

/**
 * The controller-manager's flags a hollow cluster needs: a /26 pod range per
 * node (62 pods; the default /24 gives 10.244.0.0/16 only 256 nodes), as
 * large kubemark clusters set --node-cidr-mask-size.
 */
export function hollowControllerManagerArgs(nodes: number): string[] {
  return nodes + 1 > 256 ? ['--node-cidr-mask-size=26'] : [];
}
