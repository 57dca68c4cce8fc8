// `kubelab kubeadm nats DIR`: the NATS phase for clusters the local runner
// does not start (the compose stack): the NATS client certificates from the
// etcd CA in DIR (kept when present), and DIR/nats.conf (or --config) from the
// same function `kubelab up` uses. DIR plays /etc/kubernetes, as mounted where
// nats-server reads it: the file paths in nats.conf are DIR's. Each node's
// folder (--nodes-dir, that node's /etc/kubernetes) gets its runtime's
// certificate and the etcd CA certificate it verifies NATS with.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { FlagError, FlagSet } from '@kubelab/component-base';
import { ADMIN_NATS_IDENTITY, natsServerConfig, readNatsTls, type NatsClientTls } from '@kubelab/nats';
import { CertificateAuthority, PKI_FILES, ensureCert } from '@kubelab/pki';
import { ETCD_PEER } from './ha.js';
import { NATS_CLUSTER_NAME, NATS_ROUTE_PORT, natsClusterMemberConfig } from './nats-cluster.js';
import { ensureNatsClientCerts } from './kubeadm.js';
import { connectNats } from './nats.js';
import { CRI_STREAM, ensureCriStream, type StreamState } from './trace/source.js';
import { DEFAULT_PORTS, natsClientFiles, type ClusterInfo } from './topology.js';

export function kubeadmNatsFlags() {
  return new FlagSet('pnpm kubelab kubeadm nats DIR')
    .stringArray('nodes', [], 'the nodes whose runtime may publish CRI records (repeatable, or a comma list), e.g. node-1,node-2')
    .string('listen', `0.0.0.0:${DEFAULT_PORTS.nats}`, "nats-server's client address")
    .string('monitor', `0.0.0.0:${DEFAULT_PORTS.natsMonitor}`, "nats-server's monitoring address (/healthz; unauthenticated); empty for none")
    .string('store-dir', '/data/jetstream', "JetStream's store, as nats-server sees it")
    .string('bucket', 'kubelab', "the apiserver's --kv-bucket")
    .string('nodes-dir', '', "folder holding one folder per node, that node's /etc/kubernetes (default DIR/nodes), as `kubeadm init --nodes-dir`")
    .string('config', '', 'where nats.conf goes (default DIR/nats.conf): a folder nats-server reads')
    .stringArray(
      'cluster-members',
      [],
      "kubelab (the compose ha profile): the names of a NATS cluster's members, each a host its peers reach (e.g. nats,nats-2,nats-3); the first's file is --config, the others' <name>.conf beside it, routes on 6222 with mutual TLS as DIR/pki/etcd/peer; empty: one server",
    );
}

/** The optional flags, for the usage lines. */
export const NATS_USAGE_FLAGS = '[--nodes-dir DIR/nodes] [--config DIR/nats.conf] [--listen 0.0.0.0:4222] [--monitor 0.0.0.0:8222] [--store-dir /data/jetstream]';

export interface KubeadmNatsArgs {
  dir: string;
  nodes: string[];
  listen: string;
  monitor: string;
  storeDir: string;
  bucket: string;
  nodesDir: string;
  config: string;
  clusterMembers: string[];
}

export function parseKubeadmNatsArgs(argv: string[], env: NodeJS.ProcessEnv = {}): KubeadmNatsArgs {
  const { values, rest } = kubeadmNatsFlags().parse(argv, env);
  if (rest.length !== 1) throw new FlagError(`usage: pnpm kubelab kubeadm nats DIR --nodes node-1,node-2 ${NATS_USAGE_FLAGS}`);
  const nodes = values.nodes.map((n) => n.trim()).filter(Boolean);
  const dir = rest[0]!;
  return {
    dir,
    nodes,
    listen: values.listen,
    monitor: values.monitor,
    storeDir: values['store-dir'],
    bucket: values.bucket,
    nodesDir: values['nodes-dir'] || join(dir, 'nodes'),
    config: values.config || join(dir, 'nats.conf'),
    clusterMembers: values['cluster-members'].map((n) => n.trim()).filter(Boolean),
  };
}

export async function kubeadmNatsCommand(argv: string[]): Promise<number> {
  let args: KubeadmNatsArgs;
  try {
    args = parseKubeadmNatsArgs(argv);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 2;
  }
  const at = (base: string, ext: string) => join(args.dir, `${base}.${ext}`);
  if (!existsSync(at(PKI_FILES.etcdCa, 'key'))) {
    process.stderr.write(`kubelab kubeadm nats: no etcd CA at ${at(PKI_FILES.etcdCa, 'crt')}: create the cluster's certificates first (kubeadm init phase certs)\n`);
    return 1;
  }
  const etcdCa = await CertificateAuthority.fromPem(readFileSync(at(PKI_FILES.etcdCa, 'crt'), 'utf8'), readFileSync(at(PKI_FILES.etcdCa, 'key'), 'utf8'));
  await ensureNatsClientCerts(args.dir, etcdCa, args.nodes, args.nodesDir);
  // Each node's runtime verifies NATS' serving certificate with the etcd CA (as kubeadm join leaves pki/ca.crt).
  for (const node of args.nodes) {
    const nodeCa = join(args.nodesDir, node, `${PKI_FILES.etcdCa}.crt`);
    if (existsSync(nodeCa)) continue;
    mkdirSync(dirname(nodeCa), { recursive: true });
    writeFileSync(nodeCa, etcdCa.certPem, { mode: 0o644 });
  }
  const config = args.config;
  mkdirSync(dirname(config), { recursive: true });
  const tls = { certFile: at(PKI_FILES.etcdServer, 'crt'), keyFile: at(PKI_FILES.etcdServer, 'key'), caFile: at(PKI_FILES.etcdCa, 'crt') };
  if (args.clusterMembers.length > 1) {
    // kubeadm's stacked etcd members verify each other with the etcd peer pair; here the NATS routes do (one pair naming every member).
    await ensureCert(args.dir, ETCD_PEER, etcdCa, { commonName: args.clusterMembers[0]!, usages: ['server', 'client'], dnsNames: ['localhost', ...args.clusterMembers], ipAddresses: ['127.0.0.1'] });
    const port = (hostPort: string) => Number(hostPort.slice(hostPort.lastIndexOf(':') + 1));
    const members = args.clusterMembers.map((name) => ({
      name,
      host: name,
      bind: '0.0.0.0',
      client: port(args.listen),
      monitor: args.monitor ? port(args.monitor) : DEFAULT_PORTS.natsMonitor,
      route: NATS_ROUTE_PORT,
      storeDir: args.storeDir,
    }));
    const routeTls = { certFile: at(ETCD_PEER, 'crt'), keyFile: at(ETCD_PEER, 'key'), caFile: at(PKI_FILES.etcdCa, 'crt') };
    for (const [i, m] of members.entries()) {
      const file = i === 0 ? config : join(dirname(config), `${m.name}.conf`);
      writeFileSync(file, natsClusterMemberConfig({ tls, nodes: args.nodes, bucket: args.bucket, routeTls }, m, members));
    }
    process.stdout.write(`[nats] Cluster "${NATS_CLUSTER_NAME}" of ${members.map((m) => m.name).join(', ')}: routes on ${NATS_ROUTE_PORT} with "${at(ETCD_PEER, 'crt')}"\n`);
  } else {
    writeFileSync(config, natsServerConfig({ listen: args.listen, ...(args.monitor ? { monitor: args.monitor } : {}), storeDir: args.storeDir, tls, nodes: args.nodes, bucket: args.bucket }));
  }
  process.stdout.write(`[nats] Wrote "${config}" and the NATS client certificates (trace, admin, dashboard, containerd and node-agent of ${args.nodes.join(', ') || 'no node'})\n`);
  return 0;
}

/**
 * What `kubelab trace --state-dir <toDir>` reads, copied from a kubeadm dir
 * (`fromDir`, /etc/kubernetes) for the host: the etcd CA certificate, the
 * read-only trace identity (never the admin's), and a cluster.json naming
 * the NATS URL and apiserver the host reaches (published ports). The files
 * sit where `kubelab up` keeps them in its state dir. Returns the paths written.
 */
export async function writeHostTraceFiles(fromDir: string, toDir: string, info: { natsUrl: string; server: string }): Promise<string[]> {
  const from = natsClientFiles(fromDir, 'trace');
  const to = natsClientFiles(toDir, 'trace');
  const copies: [string, string, number][] = [
    [from.caFile, to.caFile, 0o644],
    [from.certFile, to.certFile, 0o644],
    [from.keyFile, to.keyFile, 0o600],
  ];
  for (const [src, dst, mode] of copies) {
    if (!existsSync(src)) throw new Error(`no ${src}: run \`kubelab kubeadm nats ${fromDir}\` first`);
    await mkdir(dirname(dst), { recursive: true });
    await writeFile(dst, await readFile(src), { mode });
    await chmod(dst, mode);
  }
  const cluster = join(toDir, 'cluster.json');
  const content: Partial<ClusterInfo> = { natsUrl: info.natsUrl, server: info.server };
  await writeFile(cluster, JSON.stringify(content, null, 2) + '\n', { mode: 0o644 });
  return [...copies.map(([, dst]) => dst), cluster];
}

/**
 * Creates the CRI record stream `kubelab trace --since` replays (KUBELAB_CRI),
 * as the NATS admin: the viewer's own identity may read it but create no
 * stream (a stream can capture any subject). Throws when NATS cannot be reached.
 */
export async function ensureCriHistory(url: string, tls: NatsClientTls | undefined): Promise<{ state: StreamState; reason?: string }> {
  const nc = await connectNats({ url, ...(tls ? { tls } : {}) }, ADMIN_NATS_IDENTITY, 'kubelab-cri-stream', { maxReconnectAttempts: 0 });
  try {
    return await ensureCriStream(nc);
  } finally {
    await nc.close().catch(() => {});
  }
}

export function criStreamFlags() {
  return new FlagSet('pnpm kubelab kubeadm cri-stream DIR')
    .string('nats-url', `nats://127.0.0.1:${DEFAULT_PORTS.nats}`, 'the NATS to create the stream on')
    .duration('timeout', 120_000, 'how long to wait for NATS to answer');
}

/**
 * `kubelab kubeadm cri-stream DIR`: the compose stack's step after NATS is up
 * (what `kubelab up` does once nats-server is healthy), as DIR's
 * pki/etcd/admin-client; retries until NATS answers or --timeout passes.
 */
export async function criStreamCommand(argv: string[]): Promise<number> {
  let values: { 'nats-url': string; timeout: number };
  let tls: NatsClientTls | undefined;
  try {
    const parsed = criStreamFlags().parse(argv, {});
    if (parsed.rest.length !== 1) throw new FlagError('usage: pnpm kubelab kubeadm cri-stream DIR [--nats-url nats://nats:4222] [--timeout 2m]');
    values = parsed.values;
    // A missing certificate is a usage error naming the file (run `kubeadm nats DIR` first).
    tls = readNatsTls(natsClientFiles(parsed.rest[0]!, 'admin'));
  } catch (e) {
    process.stderr.write(`kubelab kubeadm cri-stream: ${(e as Error).message}\n`);
    return 2;
  }
  const deadline = Date.now() + values.timeout;
  for (;;) {
    let reason: string;
    try {
      const r = await ensureCriHistory(values['nats-url'], tls);
      if (r.state !== 'unavailable') {
        process.stdout.write(`[cri-stream] ${r.state === 'created' ? 'Created' : 'Using existing'} stream "${CRI_STREAM}" on ${values['nats-url']}: the CRI calls \`kubelab trace --since\` replays\n`);
        return 0;
      }
      reason = r.reason ?? 'JetStream unavailable';
    } catch (e) {
      reason = (e as Error).message;
    }
    if (Date.now() > deadline) {
      process.stderr.write(`kubelab kubeadm cri-stream: no stream "${CRI_STREAM}" on ${values['nats-url']}: ${reason}\n`);
      return 1;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}
