// `kubelab up --ha`: a highly available control plane as kubeadm's HA guide
// builds one with stacked etcd, on loopback. Three control-plane "nodes",
// each with its etcd member (a nats-server of a three-server cluster,
// nats-cluster.ts), its kube-apiserver (its own serving certificate naming
// the load balancer's address), kube-scheduler and kube-controller-manager
// (talking to their own apiserver, as kubeadm's scheduler.conf and
// controller-manager.conf name the local API endpoint; Lease-based leader
// election picks one active of each). haproxy (haproxy.ts) fronts the
// apiservers: the kubeconfigs and every other component go through it. The
// object store's bucket is created at replicas 3 before any apiserver starts.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { ADMIN_NATS_IDENTITY, readNatsTls, type NatsClientTls } from '@kubelab/nats';
import { APISERVER_SERVICE_NAMES, CertificateAuthority, PKI_FILES, ensureCert } from '@kubelab/pki';
import { readFile } from 'node:fs/promises';
import { haproxyConfig, type Backend } from './haproxy.js';
import { connectNats } from './nats.js';
import { NATS_ROUTE_PORT, natsClusterMemberConfig, natsClusterUrls, natsMembers, type NatsMember } from './nats-cluster.js';
import { kubeadmFiles, natsClientFiles, nodeNames, type ComponentSpec, type Layout } from './topology.js';

/** Control-plane instances (etcd members, apiservers, schedulers, controller-managers): kubeadm's smallest HA cluster. */
export const HA_SIZE = 3;
/** The object store's bucket (the apiserver's --kv-bucket default) and its replicas in the NATS cluster. */
export const HA_BUCKET = 'kubelab';
export const HA_REPLICAS = 3;
/** The kubeadm etcd peer pair: the NATS routes' mutual TLS. */
export const ETCD_PEER = 'pki/etcd/peer';
/** haproxy's stats port (its conventional 8404, moved by --port-offset): /healthz answers while haproxy runs. */
export const HAPROXY_MONITOR_PORT = 8404;
/** Processes of an HA runner that the control-plane node's kubelet restarts when they exit (their static pods' restartPolicy Always). */
export const HA_RESTARTED: ReadonlySet<string> = new Set(['nats', 'apiserver', 'scheduler', 'controller-manager']);

/** Each instance's ports; instance 1 keeps the single control plane's (the balancer takes the apiserver's). */
export interface HaPorts {
  nats: NatsMember[];
  apiservers: Backend[];
  schedulers: number[];
  controllerManagers: number[];
  haproxyMonitor: number;
}

/**
 * The instances' ports (pure). NATS members: 4222/8222/6222 and the next two;
 * apiservers: 6453/6454, 6463/6464, 6473/6474 behind the balancer on
 * 6443/6444; schedulers 10259, 10261, 10262 and controller-managers 10257,
 * 10263, 10264 (free in every node stride). All moved by the port offset.
 */
export function haPorts(layout: Pick<Layout, 'stateDir' | 'portOffset' | 'ports'>): HaPorts {
  const off = layout.portOffset;
  const { ports } = layout;
  const nats = natsMembers(HA_SIZE, { client: ports.nats, monitor: ports.natsMonitor, route: NATS_ROUTE_PORT + off }, (name) => join(layout.stateDir, 'nats', name));
  const apiservers = Array.from({ length: HA_SIZE }, (_, i) => ({ name: `apiserver-${i + 1}`, host: '127.0.0.1', https: ports.apiserver + 10 * (i + 1), grpc: ports.apiserver + 10 * (i + 1) + 1 }));
  return {
    nats,
    apiservers,
    schedulers: [ports.scheduler, 10261 + off, 10262 + off],
    controllerManagers: [ports.controllerManager, 10263 + off, 10264 + off],
    haproxyMonitor: HAPROXY_MONITOR_PORT + off,
  };
}

/** `args` with `--name=value` for every flag in `set` (replacing the flag where present, else appended). */
export function withFlags(args: readonly string[], set: Record<string, string>): string[] {
  const out = args.filter((a) => !Object.keys(set).some((k) => a === `--${k}` || a.startsWith(`--${k}=`)));
  for (const [k, v] of Object.entries(set)) out.push(`--${k}=${v}`);
  return out;
}

/** Per-instance apiserver serving pair (each control-plane node's pki/apiserver.crt in kubeadm's HA cluster). */
export function apiserverCertFiles(stateDir: string, instance: number): { cert: string; key: string } {
  return { cert: join(stateDir, `pki/apiserver-${instance}.crt`), key: join(stateDir, `pki/apiserver-${instance}.key`) };
}

export function natsMemberConfigPath(stateDir: string, member: string): string {
  return join(stateDir, `${member}.conf`);
}

export function haproxyConfigPath(stateDir: string): string {
  return join(stateDir, 'haproxy.cfg');
}

/**
 * The single control plane's components turned into the HA one (pure):
 * nats → nats-1..3, apiserver → apiserver-1..3 and haproxy, scheduler and
 * controller-manager → three each on their own apiserver; the rest unchanged
 * (they reach the apiservers through the balancer's ports, layout.ports).
 */
export function haComponents(layout: Layout, base: readonly ComponentSpec[]): ComponentSpec[] {
  const hp = haPorts(layout);
  const urls = natsClusterUrls(hp.nats);
  const out: ComponentSpec[] = [];
  for (const spec of base) {
    if (spec.service === 'nats') {
      hp.nats.forEach((m, i) =>
        out.push({
          name: m.name,
          service: 'nats',
          args: ['-c', natsMemberConfigPath(layout.stateDir, m.name)],
          // A member alone has no JetStream meta leader: the first two are checked as servers, the last once the cluster formed.
          health: `http://127.0.0.1:${m.monitor}/healthz${i < hp.nats.length - 1 ? '?js-enabled-only=true' : ''}`,
        }),
      );
    } else if (spec.service === 'apiserver') {
      hp.apiservers.forEach((b, i) => {
        const files = apiserverCertFiles(layout.stateDir, i + 1);
        out.push({
          ...spec,
          name: b.name,
          args: withFlags(spec.args, {
            'secure-port': String(b.https),
            'grpc-port': String(b.grpc),
            'nats-url': urls,
            'tls-cert-file': files.cert,
            'tls-private-key-file': files.key,
            // The three share one address here, each on its own port: the first alone publishes the kubernetes Service's endpoint.
            ...(i > 0 ? { 'endpoint-reconciler-type': 'none' } : {}),
          }),
          health: `https://127.0.0.1:${b.https}/readyz`,
        });
      });
      out.push({
        name: 'haproxy',
        service: 'haproxy',
        args: ['-f', haproxyConfigPath(layout.stateDir)],
        // Through the balancer: ready once it routes to a ready apiserver.
        health: `https://127.0.0.1:${layout.ports.apiserver}/readyz`,
      });
    } else if (spec.service === 'scheduler' || spec.service === 'controller-manager') {
      const ports = spec.service === 'scheduler' ? hp.schedulers : hp.controllerManagers;
      ports.forEach((port, i) =>
        out.push({
          ...spec,
          name: `${spec.name}-${i + 1}`,
          args: withFlags(spec.args, { 'apiserver-grpc-address': `127.0.0.1:${hp.apiservers[i]!.grpc}`, 'secure-port': String(port), 'leader-elect': 'true' }),
          health: `https://127.0.0.1:${port}/healthz`,
        }),
      );
    } else out.push(spec);
  }
  return out;
}

/** The specs as the control-plane node's static pods see them (localStaticPods): instance 1 under the single names. */
export function haStaticPodView(specs: readonly ComponentSpec[]): ComponentSpec[] {
  const single: Record<string, string> = { 'nats-1': 'nats', 'apiserver-1': 'apiserver', 'scheduler-1': 'scheduler', 'controller-manager-1': 'controller-manager' };
  return specs.map((s) => (single[s.name] ? { ...s, name: single[s.name]! } : s));
}

/** The process after which the store is ready (the last NATS member), and the one after which the API is (the balancer). */
export function isStoreReady(spec: ComponentSpec, ha: boolean): boolean {
  return ha ? spec.name === `nats-${HA_SIZE}` : spec.service === 'nats';
}
export function isApiReady(spec: ComponentSpec, ha: boolean): boolean {
  return ha ? spec.service === 'haproxy' : spec.service === 'apiserver';
}

/**
 * kubeadm's HA certificate and etcd phases for the runner: the etcd peer
 * pair, each apiserver's serving pair (kept when present), each NATS
 * member's file and haproxy.cfg.
 */
export async function writeHaFiles(layout: Layout): Promise<void> {
  const dir = layout.stateDir;
  const files = kubeadmFiles(layout);
  const hp = haPorts(layout);
  const load = async (base: string) => CertificateAuthority.fromPem(await readFile(join(dir, `${base}.crt`), 'utf8'), await readFile(join(dir, `${base}.key`), 'utf8'));
  const [ca, etcdCa] = await Promise.all([load(PKI_FILES.ca), load(PKI_FILES.etcdCa)]);
  await ensureCert(dir, ETCD_PEER, etcdCa, { commonName: 'localhost', usages: ['server', 'client'], dnsNames: ['localhost', ...hp.nats.map((m) => m.name)], ipAddresses: ['127.0.0.1', '::1'] });
  for (let i = 1; i <= HA_SIZE; i++) {
    // kubeadm: the service names, the node's own name and address, and the controlPlaneEndpoint's (the balancer's, 127.0.0.1 here).
    await ensureCert(dir, `pki/apiserver-${i}`, ca, {
      commonName: 'kube-apiserver',
      usages: ['server'],
      dnsNames: [...APISERVER_SERVICE_NAMES, 'localhost', `apiserver-${i}`],
      ipAddresses: ['10.96.0.1', '127.0.0.1'],
    });
  }
  const routeTls = { certFile: join(dir, `${ETCD_PEER}.crt`), keyFile: join(dir, `${ETCD_PEER}.key`), caFile: files.etcdCa };
  for (const m of hp.nats) {
    writeFileSync(
      natsMemberConfigPath(dir, m.name),
      natsClusterMemberConfig({ tls: { certFile: files.etcdServerCert, keyFile: files.etcdServerKey, caFile: files.etcdCa }, nodes: nodeNames(layout), routeTls }, m, hp.nats),
    );
  }
  writeFileSync(
    haproxyConfigPath(dir),
    haproxyConfig({ bind: '127.0.0.1', httpsPort: layout.ports.apiserver, grpcPort: layout.ports.apiserverGrpc, monitorPort: hp.haproxyMonitor, backends: hp.apiservers }),
  );
}

/**
 * The object store's bucket at replicas 3, made as the NATS admin before any
 * apiserver binds it (the apiserver keeps an existing bucket's settings);
 * one at fewer replicas is raised to 3. Retries until the cluster has a
 * JetStream meta leader or `timeoutMs` passes.
 */
export async function ensureReplicatedBucket(layout: Layout, timeoutMs = 60_000): Promise<{ replicas: number; leader?: string }> {
  return ensureReplicatedBucketAt(natsClusterUrls(haPorts(layout).nats), readNatsTls(natsClientFiles(layout.stateDir, 'admin')), timeoutMs);
}

/** ensureReplicatedBucket on the members at `url` (a comma list), as the NATS admin `tls` (compose's kubeadm-ha). */
export async function ensureReplicatedBucketAt(url: string, tls: NatsClientTls | undefined, timeoutMs = 60_000): Promise<{ replicas: number; leader?: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const nc = await connectNats({ url: url.split(',')[0]!, ...(tls ? { tls } : {}) }, ADMIN_NATS_IDENTITY, 'kubelab-ha-bucket', { servers: url.split(','), maxReconnectAttempts: 0 });
      try {
        const jsm = await jetstreamManager(nc, { timeout: 10_000 });
        // An apiserver may have made the bucket first (compose starts it beside the cluster): kept, only its replicas raised.
        const existing = await jsm.streams.info(`KV_${HA_BUCKET}`).catch(() => undefined);
        if (!existing) await new Kvm(jetstream(nc, { timeout: 10_000 })).create(HA_BUCKET, { history: 1, storage: 'file' as never, replicas: HA_REPLICAS });
        let info = existing ?? (await jsm.streams.info(`KV_${HA_BUCKET}`));
        if (info.config.num_replicas < HA_REPLICAS) info = await jsm.streams.update(`KV_${HA_BUCKET}`, { ...info.config, num_replicas: HA_REPLICAS });
        // Done when the stream's RAFT group has a leader (just made or raised, it may still be electing one).
        while (!info.cluster?.leader && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 250));
          info = await jsm.streams.info(`KV_${HA_BUCKET}`);
        }
        return { replicas: info.config.num_replicas, ...(info.cluster?.leader ? { leader: info.cluster.leader } : {}) };
      } finally {
        await nc.close().catch(() => {});
      }
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}
