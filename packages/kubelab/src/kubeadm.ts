// `kubeadm init`'s file phases (certs, kubeconfig) plus the encryption config,
// for both runners: `pnpm kubelab up` writes them into its state dir (which
// plays /etc/kubernetes) and the compose stack's one-shot `kubeadm-init`
// service into its volumes (`kubelab kubeadm init`). Existing files are kept,
// so a restarted cluster keeps its identities and its Secrets' key. Nodes
// that join (`join: true`) get bootstrap-kubelet.conf with the bootstrap
// token instead of a kubelet.conf: their kubelet asks for its certificate
// (bootstrap-token.ts). The user's kubeconfig is a copy of admin.conf, as
// kubeadm tells its users to `cp /etc/kubernetes/admin.conf $HOME/.kube/config`.

import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';
import { formatIpv4, parseIpv4Cidr } from '@kubelab/api';
import { ADMIN_NATS_IDENTITY, DASHBOARD_NATS_IDENTITY, SCHEDULER_NATS_IDENTITY, TRACE_NATS_IDENTITY, containerdNatsIdentity, kubeProxyNatsIdentity, nodeAgentNatsIdentity } from '@kubelab/nats';
import { certificateInfo, ensureCert, ensureClusterPki, ensureKubeconfig, kubeletIdentity, KUBECONFIG_FILES, PKI_FILES, type CertificateAuthority, type ClusterPki } from '@kubelab/pki';
import { parse, stringify } from 'yaml';
import { BOOTSTRAP_KUBELET_CONF, BOOTSTRAP_TOKEN_FILE, ensureBootstrapKubeletConf, ensureBootstrapToken, rfc3339 } from './bootstrap-token.js';
import { ANONYMOUS_PATHS, AUTHENTICATION_CONFIG_FILE, ensureAuthenticationConfig } from './authentication-config.js';
import { ENCRYPTION_CONFIG_FILE, ensureEncryptionConfig } from './encryption-config.js';
import { CONTROL_PLANE_NODE, NATS_CLIENT_FILES, NATS_LEAFNODE_CERT, kubeadmFiles, nodeNames, type Layout } from './topology.js';
import { NPD_IDENTITY } from './npd-addon.js';
import { NETPOL_IDENTITY } from './network-policy-addon.js';
import { METRICS_SERVER_IDENTITY } from './metrics-server-addon.js';
import { DASHBOARD_IDENTITY } from './dashboard-addon.js';

/** kube-proxy's identity (upstream binds system:node-proxier to the user system:kube-proxy). */
export const KUBE_PROXY_IDENTITY = { commonName: 'system:kube-proxy' };

export interface KubeadmNode {
  name: string;
  /** Where its kubelet.conf goes (the node's /etc/kubernetes/kubelet.conf); for a joining node, where its kubelet writes it. */
  kubeletConf: string;
  /** Joins as with `kubeadm join`: bootstrap-kubelet.conf beside kubeletConf, no kubelet.conf. */
  join?: boolean;
}

export interface KubeadmInitOptions {
  /** The directory playing /etc/kubernetes of the control plane. */
  dir: string;
  /** The apiserver URL in every kubeconfig (kubeadm's controlPlaneEndpoint). */
  server: string;
  /** The server cluster-info names for joining nodes (kubeadm's controlPlaneEndpoint or advertise address); default `server`. */
  clusterInfoServer?: string;
  /** kubeadm's --service-cidr: its first address (the `kubernetes` Service) is a SAN of apiserver.crt. */
  serviceCidr: string;
  /** kubeadm's --apiserver-cert-extra-sans: DNS names and IP addresses, mixed. */
  apiserverCertExtraSans?: readonly string[];
  /** kubeadm's etcd.local.serverCertSANs: names and IPs NATS (etcd's role) is reached by, for pki/etcd/server.crt. */
  etcdCertExtraSans?: readonly string[];
  nodes: readonly KubeadmNode[];
  /** Where a kube-proxy.conf (user system:kube-proxy) goes: one shared file, or one per node. */
  kubeProxyConfs: readonly string[];
  /** Where a node-problem-detector.conf (its ServiceAccount's identity, npd-addon.ts) goes: one shared file, or one per node. */
  npdConfs?: readonly string[];
  /** Where kube-network-policies.conf (its ServiceAccount's identity, network-policy-addon.ts) goes: one shared file, or one per node. */
  netpolConfs?: readonly string[];
  /** Where metrics-server.conf (its ServiceAccount's identity, metrics-server-addon.ts) goes. */
  metricsServerConfs?: readonly string[];
  /** Where kubelab-dashboard.conf (its ServiceAccount's identity, dashboard-addon.ts) goes. */
  dashboardConfs?: readonly string[];
  /** uid/gid that gets every file under `dir` (the compose control plane runs as uid 1000); default: left as written. */
  owner?: { uid: number; gid: number };
  /** kubeadm's progress lines; default silent. */
  log?: (line: string) => void;
}

/** The `kubernetes` Service's ClusterIP: the first address of the service range (upstream GetIndexedIP(cidr, 1)). */
export function kubernetesServiceIp(serviceCidr: string): string {
  const cidr = parseIpv4Cidr(serviceCidr);
  if (!cidr || cidr.prefix > 30) throw new Error(`--service-cidr "${serviceCidr}": not an IPv4 CIDR with room for a Service IP`);
  return formatIpv4(cidr.base + 1);
}

/** --apiserver-cert-extra-sans split as kubeadm does: IP addresses go to IP SANs, the rest to DNS SANs. */
export function splitSans(sans: readonly string[]): { dnsNames: string[]; ips: string[] } {
  const list = sans.map((s) => s.trim()).filter(Boolean);
  return { dnsNames: list.filter((s) => isIP(s) === 0), ips: list.filter((s) => isIP(s) !== 0) };
}

/** What kubeadm prints for a file it generated or found (the same words for both). */
export function certLine(name: string, existed: boolean, isCa: boolean): string {
  if (isCa) return existed ? `[certs] Using existing ${name} certificate authority` : `[certs] Generating "${name}" certificate and key`;
  return existed ? `[certs] Using existing ${name} certificate and key on disk` : `[certs] Generating "${name}" certificate and key`;
}

export function kubeconfigLine(path: string, existed: boolean): string {
  return existed ? `[kubeconfig] Using existing kubeconfig file: "${path}"` : `[kubeconfig] Writing "${path.split('/').pop()}" kubeconfig file`;
}

const CA_FILES = new Set<string>([PKI_FILES.ca, PKI_FILES.frontProxyCa, PKI_FILES.etcdCa]);

/** `kubeadm init phase certs all`, `phase kubeconfig all` (and each node's kubelet.conf), and the encryption config. */
export async function kubeadmInitFiles(o: KubeadmInitOptions): Promise<ClusterPki> {
  const log = o.log ?? (() => {});
  const serviceIp = kubernetesServiceIp(o.serviceCidr);
  const sans = splitSans(o.apiserverCertExtraSans ?? []);
  const etcdSans = splitSans(o.etcdCertExtraSans ?? []);
  const pkiBases = Object.values(PKI_FILES).filter((b) => !b.endsWith('.key') && !b.endsWith('.pub'));
  const had = new Set([...pkiBases.map((b) => `${b}.crt`), PKI_FILES.saKey, ...Object.values(KUBECONFIG_FILES)].filter((rel) => existsSync(join(o.dir, rel))));
  const nodeConfs = [
    ...o.nodes.filter((n) => !n.join).map((n) => n.kubeletConf),
    ...o.kubeProxyConfs,
    ...(o.npdConfs ?? []),
    ...(o.metricsServerConfs ?? []),
    ...(o.netpolConfs ?? []),
    ...(o.dashboardConfs ?? []),
  ];
  const hadConf = new Set(nodeConfs.filter((p) => existsSync(p)));

  const pki = await ensureClusterPki({
    dir: o.dir,
    server: o.server,
    serviceIp,
    apiserverDnsNames: sans.dnsNames,
    apiserverIps: sans.ips,
    etcdDnsNames: etcdSans.dnsNames,
    etcdIps: etcdSans.ips,
  });
  log(`[certs] Using certificateDir folder "${join(o.dir, 'pki')}"`);
  for (const base of pkiBases) log(certLine(base.replace(/^pki\//, ''), had.has(`${base}.crt`), CA_FILES.has(base)));
  const served = certificateInfo(await readFile(join(o.dir, `${PKI_FILES.apiserver}.crt`), 'utf8'));
  log(`[certs] apiserver serving cert is signed for DNS names [${served.dnsNames.join(' ')}] and IPs [${served.ipAddresses.join(' ')}]`);
  log(had.has(PKI_FILES.saKey) ? '[certs] Using the existing "sa" key' : '[certs] Generating "sa" key and public key');

  log(`[kubeconfig] Using kubeconfig folder "${o.dir}"`);
  for (const f of Object.values(KUBECONFIG_FILES)) log(kubeconfigLine(join(o.dir, f), had.has(f)));
  await Promise.all([
    ...o.nodes.filter((n) => !n.join).map((n) => ensureKubeconfig(n.kubeletConf, pki.ca, kubeletIdentity(n.name), { server: o.server })),
    ...o.kubeProxyConfs.map((p) => ensureKubeconfig(p, pki.ca, KUBE_PROXY_IDENTITY, { server: o.server })),
    ...(o.npdConfs ?? []).map((p) => ensureKubeconfig(p, pki.ca, NPD_IDENTITY, { server: o.server })),
    ...(o.metricsServerConfs ?? []).map((p) => ensureKubeconfig(p, pki.ca, METRICS_SERVER_IDENTITY, { server: o.server })),
    ...(o.netpolConfs ?? []).map((p) => ensureKubeconfig(p, pki.ca, NETPOL_IDENTITY, { server: o.server })),
    ...(o.dashboardConfs ?? []).map((p) => ensureKubeconfig(p, pki.ca, DASHBOARD_IDENTITY, { server: o.server })),
  ]);
  for (const p of nodeConfs) log(kubeconfigLine(p, hadConf.has(p)));

  // kubeadm init's bootstrap token (uploaded once the apiserver runs) and, for each joining node, its bootstrap-kubelet.conf.
  const tokenFile = join(o.dir, BOOTSTRAP_TOKEN_FILE);
  const token = await ensureBootstrapToken({ file: tokenFile, server: o.clusterInfoServer ?? o.server, caPem: pki.ca.certPem });
  log(`[bootstrap-token] ${token.created ? 'Generated a new' : 'Using the existing'} bootstrap token in "${tokenFile}", valid until ${rfc3339(token.expires)}`);
  for (const n of o.nodes.filter((n) => n.join)) {
    const path = join(dirname(n.kubeletConf), BOOTSTRAP_KUBELET_CONF);
    const wrote = await ensureBootstrapKubeletConf(path, o.server, pki.ca.certPem, token.token);
    log(kubeconfigLine(path, !wrote));
  }
  // Each node's staticPodPath, as kubeadm creates it (and the mount point of the compose node's manifests volume).
  for (const d of new Set([o.dir, ...o.nodes.map((n) => dirname(n.kubeletConf))])) await mkdir(join(d, 'manifests'), { recursive: true });
  // Each node's pki/ca.crt, as `kubeadm join` leaves it: the kubelet's --client-ca-file for its HTTPS API.
  for (const d of new Set(o.nodes.map((n) => dirname(n.kubeletConf)).filter((d) => d !== o.dir))) {
    const nodeCa = join(d, `${PKI_FILES.ca}.crt`);
    if (existsSync(nodeCa)) continue;
    await mkdir(dirname(nodeCa), { recursive: true });
    await writeFile(nodeCa, pki.ca.certPem, { mode: 0o644 });
    log(`[certs] Writing the cluster CA to "${nodeCa}"`);
  }

  const encryption = join(o.dir, ENCRYPTION_CONFIG_FILE);
  const { created } = ensureEncryptionConfig(encryption);
  log(created ? `[encryption-config] Generated "${encryption}" (secrets: aescbc key "key1", then identity)` : `[encryption-config] Using the existing "${encryption}"`);

  const authentication = join(o.dir, AUTHENTICATION_CONFIG_FILE);
  const auth = ensureAuthenticationConfig(authentication);
  log(auth.created ? `[authentication-config] Generated "${authentication}" (anonymous only on ${ANONYMOUS_PATHS.join(', ')})` : `[authentication-config] Using the existing "${authentication}"`);

  if (o.owner) await chownTree(o.dir, o.owner.uid, o.owner.gid);
  return pki;
}

async function chownTree(path: string, uid: number, gid: number): Promise<void> {
  await chown(path, uid, gid);
  for (const e of await readdir(path, { withFileTypes: true })) {
    if (e.isDirectory()) await chownTree(join(path, e.name), uid, gid);
    else if (e.isFile()) await chown(join(path, e.name), uid, gid);
  }
}

/**
 * A copy of a kubeconfig with every cluster's server set to `server` (the
 * address the user reaches, e.g. a published port), mode 0600: it holds a key.
 */
export async function copyKubeconfig(from: string, to: string, server?: string): Promise<void> {
  const text = await readFile(from, 'utf8');
  let out = text;
  if (server) {
    const doc = parse(text) as { clusters?: { cluster?: { server?: string } }[] };
    for (const c of doc.clusters ?? []) if (c.cluster) c.cluster.server = server;
    out = stringify(doc);
  }
  await mkdir(dirname(to), { recursive: true });
  await writeFile(to, out, { mode: 0o600 });
  await chmod(to, 0o600);
}

/** `pnpm kubelab up`: the state dir plays /etc/kubernetes, each node folder that node's; control-plane is init's own node, the workers join with the bootstrap token. */
export async function kubeadmInit(layout: Layout, userKubeconfig: string): Promise<void> {
  const server = `https://127.0.0.1:${layout.ports.apiserver}`;
  const files = kubeadmFiles(layout);
  const nodes = nodeNames(layout).map((name) => ({ name, kubeletConf: files.kubelet(name), join: name !== CONTROL_PLANE_NODE }));
  const advertised = layout.advertiseAddress;
  const pki = await kubeadmInitFiles({
    dir: layout.stateDir,
    server,
    ...(advertised ? { clusterInfoServer: `https://${advertised}:${layout.ports.apiserver}`, apiserverCertExtraSans: [advertised] } : {}),
    serviceCidr: '10.96.0.0/12',
    nodes,
    kubeProxyConfs: [files.kubeProxy],
    npdConfs: [files.nodeProblemDetector],
    metricsServerConfs: [files.metricsServer],
    netpolConfs: [files.networkPolicies],
    dashboardConfs: [files.dashboard],
  });
  await ensureNatsClientCerts(layout.stateDir, pki.etcdCa, nodeNames(layout));
  // NATS's leafnode port serves a certificate of the cluster CA: the one CA a joining node learns from discovery.
  await ensureCert(layout.stateDir, NATS_LEAFNODE_CERT, pki.ca, {
    commonName: 'kubelab-nats-leafnode',
    usages: ['server'],
    ipAddresses: [...new Set(['127.0.0.1', ...(advertised ? [advertised] : [])])],
  });
  await copyKubeconfig(files.admin, userKubeconfig);
}

/**
 * The NATS (etcd's role) clients besides the apiserver, from the etcd CA,
 * kept when present: the CLI's (`kubelab trace`, `kubelab kv`) and the
 * dashboard's under `dir`/pki/etcd, and each node's runtime, agent and
 * kube-proxy under `nodesDir`/<node>/pki (the
 * compose stack's node volumes; `dir`/nodes for `kubelab up`).
 */
export async function ensureNatsClientCerts(dir: string, etcdCa: CertificateAuthority, nodes: readonly string[], nodesDir = join(dir, 'nodes')): Promise<void> {
  const client = (commonName: string) => ({ commonName, usages: ['client' as const] });
  await Promise.all([
    ensureCert(dir, NATS_CLIENT_FILES.trace, etcdCa, client(TRACE_NATS_IDENTITY.commonName)),
    ensureCert(dir, NATS_CLIENT_FILES.admin, etcdCa, client(ADMIN_NATS_IDENTITY.commonName)),
    ensureCert(dir, NATS_CLIENT_FILES.scheduler, etcdCa, client(SCHEDULER_NATS_IDENTITY.commonName)),
    ensureCert(dir, NATS_CLIENT_FILES.dashboard, etcdCa, client(DASHBOARD_NATS_IDENTITY.commonName)),
    ...nodes.map((node) => ensureCert(join(nodesDir, node), NATS_CLIENT_FILES.containerd, etcdCa, client(containerdNatsIdentity(node).commonName))),
    ...nodes.map((node) => ensureCert(join(nodesDir, node), NATS_CLIENT_FILES.nodeAgent, etcdCa, client(nodeAgentNatsIdentity(node).commonName))),
    ...nodes.map((node) => ensureCert(join(nodesDir, node), NATS_CLIENT_FILES.kubeProxy, etcdCa, client(kubeProxyNatsIdentity(node).commonName))),
  ]);
}
