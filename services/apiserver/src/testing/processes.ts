// The control plane as `pnpm kubelab up` secures it, each part its own
// process, for the benchmarks: a throwaway kubeadm PKI (RSA-2048, kubeadm's
// file names) in a temporary directory removed by dispose(), nats-server with
// TLS and a user per client certificate of the etcd CA, and the apiserver's
// dist/main.js with HTTPS, client certificates, --authorization-mode=Node,RBAC
// and ServiceAccount tokens. Components get their own identities: kubeconfigs
// of the cluster CA, NATS certificates of the etcd CA.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APISERVER_NATS_IDENTITY, containerdNatsIdentity, natsServerConfig, natsUserName, natsUsers, type NatsClientTls, type NatsIdentity, type NatsTlsFiles, type NatsUser } from '@kubelab/nats';
import { ensureClusterPki, ensureKubeconfig, kubeletIdentity, loadKubeconfig, KUBECONFIG_FILES, PKI_FILES, type ClusterPki } from '@kubelab/pki';
import type { Identity } from '@kubelab/pki/testing';
import { exitSignal, freePort, startNatsServer, waitFor, waitForPort, type NatsServerHandle } from '@kubelab/testing';
import { httpsRequest, type RestRequest } from './https.js';

/** The client library's ConnectionConfig.tls. */
export interface ClientTlsPem {
  caPem: string;
  certPem: string;
  keyPem: string;
}

export interface ApiserverProcessOptions {
  /** Flags replacing kubelab up's or added to them, without the leading `--` (e.g. `{ 'authorization-mode': 'AlwaysAllow' }`). */
  flags?: Record<string, string>;
  /**
   * The KV bucket (--kv-bucket), default kubelab's. Another bucket gets its own
   * NATS user with the apiserver's permissions on it (`kvBuckets` of the cluster).
   */
  bucket?: string;
  /** Node.js flags (`--cpu-prof`). */
  nodeArgs?: string[];
  /** Another build's main.js (default this package's dist/main.js). */
  main?: string;
  /** The apiserver's stdout to ours (default ignored); stderr is kept and shown if it dies. */
  inheritStdout?: boolean;
  /** KUBELAB_LOG_LEVEL (default warn). */
  logLevel?: string;
  /** The environment (default this process's), e.g. with KUBELAB_TRACING_ENDPOINT. */
  env?: NodeJS.ProcessEnv;
}

export interface ApiserverProcess {
  pid: number;
  grpcPort: number;
  securePort: number;
  /** `127.0.0.1:<grpcPort>` */
  address: string;
  /** The flags it was started with. */
  args: string[];
  stop(): Promise<void>;
}

export interface ProcessClusterOptions {
  /** Nodes whose kubelet gets a kubeconfig and whose runtime a NATS user (default node-1). */
  nodes?: string[];
  /** Buckets besides kubelab's, each with a NATS user of the apiserver's permissions on it (for raw KV writers and more apiservers). */
  kvBuckets?: string[];
  /** Options of the first apiserver; `false` starts none (startApiserver later). */
  apiserver?: ApiserverProcessOptions | false;
}

export interface ProcessCluster {
  /** The state directory (removed by dispose). */
  dir: string;
  pki: ClusterPki;
  nats: NatsServerHandle & { pid: number | undefined };
  /** The first apiserver (throws when none was started). */
  apiserver: ApiserverProcess;
  /** The cluster CA's PEM, and its file (a kubelet's --client-ca-file). */
  caPem: string;
  caFile: string;
  /** kubeadm's admin.conf identity (kubernetes-admin in kubeadm:cluster-admins: cluster-admin through RBAC). */
  adminTls: ClientTlsPem;
  /** A client certificate of the cluster CA (CN = user, O = groups). */
  clientTls(identity: Identity): Promise<ClientTlsPem>;
  /** kubeadm's kubeconfigs: admin.conf, scheduler.conf, controller-manager.conf, or a node's kubelet.conf. */
  kubeconfig(who: 'admin' | 'scheduler' | 'controllerManager' | { node: string }): Promise<string>;
  /**
   * kube-controller-manager's flags under `kubelab up` (kubeconfig, a
   * ServiceAccount per controller, root CA, token signing key, CSR signing
   * CA); the caller adds --apiserver-grpc-address and its ports. Without it
   * no ServiceAccount or kube-root-ca.crt exists and pods cannot mount their
   * kube-api-access volume.
   */
  controllerManagerArgs(): string[];
  /** A NATS client certificate of the etcd CA written to files (--nats-ca-file, --nats-cert-file, --nats-key-file); `{ node }`: that node's runtime's. */
  natsTlsFiles(who: NatsIdentity | { node: string }): Promise<NatsTlsFiles>;
  /** The same as PEM, for a client in this process. */
  natsTls(identity: NatsIdentity): Promise<NatsClientTls>;
  /** The NATS identity of a kvBuckets entry: the apiserver's permissions on that bucket only. */
  kvWriter(bucket: string): NatsIdentity;
  startApiserver(opts?: ApiserverProcessOptions): Promise<ApiserverProcess>;
  /** One HTTPS request to an apiserver's secure port, as the admin unless `as` says otherwise. */
  rest(apiserver: ApiserverProcess, path: string, opts?: RestRequest): ReturnType<typeof httpsRequest>;
  /** The security settings in force, for a benchmark's output. */
  security: Record<string, string>;
  /** Stops every apiserver and nats-server and removes the directory with every key. */
  dispose(): Promise<void>;
}

// The package's built entry point, from dist/testing/ and from src/testing/ (tests run on the source) alike.
const DEFAULT_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const SERVICE_CIDR_FIRST_IP = '10.96.0.1';

/** The process whose command line contains `fragment` (Linux /proc), e.g. the nats-server of one config file. */
export function pidOfCommandLine(fragment: string): number | undefined {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(fragment)) return Number(d);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** A KV writer's NATS user: the apiserver's permissions, on `bucket` only. */
function kvWriterUser(identity: NatsIdentity, bucket: string): NatsUser {
  const apiserver = natsUsers({ bucket, nodes: [] }).find((u) => u.user === natsUserName(APISERVER_NATS_IDENTITY))!;
  return { user: natsUserName(identity), permissions: apiserver.permissions };
}

export async function startProcessCluster(opts: ProcessClusterOptions = {}): Promise<ProcessCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-bench-cluster-'));
  const nodes = opts.nodes ?? ['node-1'];
  const buckets = opts.kvBuckets ?? [];
  // The apiserver's serving address is in every kubeconfig, so its port is chosen before the PKI is made.
  const firstSecurePort = await freePort();
  const server = `https://127.0.0.1:${firstSecurePort}`;
  const apiservers: ApiserverProcess[] = [];
  let nats: (NatsServerHandle & { pid: number | undefined }) | undefined;
  try {
    const pki = await ensureClusterPki({ dir, server, serviceIp: SERVICE_CIDR_FIRST_IP });
    const at = (rel: string) => join(dir, rel);
    const admin = loadKubeconfig(at(KUBECONFIG_FILES.admin));
    const adminTls: ClientTlsPem = { caPem: pki.ca.certPem, certPem: admin.clientCertPem!, keyPem: admin.clientKeyPem! };
    // Only the identity (CN) matters to nats-server: the writer of a bench bucket presents the apiserver's inbox prefix.
    const kvWriter = (bucket: string): NatsIdentity => ({ commonName: `kubelab-kv-writer-${bucket}`, inboxPrefix: APISERVER_NATS_IDENTITY.inboxPrefix! });

    let serial = 0;
    const natsTlsFiles = async (who: NatsIdentity | { node: string }): Promise<NatsTlsFiles> => {
      const identity = 'node' in who ? containerdNatsIdentity(who.node) : who;
      const pair = await pki.etcdCa.issue({ commonName: identity.commonName, usages: ['client'] });
      const base = at(`pki/etcd/client-${++serial}`);
      writeFileSync(`${base}.crt`, pair.cert);
      writeFileSync(`${base}.key`, pair.key, { mode: 0o600 });
      return { caFile: at(`${PKI_FILES.etcdCa}.crt`), certFile: `${base}.crt`, keyFile: `${base}.key` };
    };
    const natsTls = async (identity: NatsIdentity): Promise<NatsClientTls> => {
      const f = await natsTlsFiles(identity);
      return { caPem: readFileSync(f.caFile, 'utf8'), certPem: readFileSync(f.certFile, 'utf8'), keyPem: readFileSync(f.keyFile, 'utf8') };
    };

    const handle = await startNatsServer({
      storeDir: at('nats'),
      // topology.ts's natsConfig: kubeadm's etcd server pair, a user per client certificate of the etcd CA.
      config: ({ port, storeDir }) =>
        natsServerConfig({
          listen: `127.0.0.1:${port}`,
          storeDir,
          tls: { certFile: at(`${PKI_FILES.etcdServer}.crt`), keyFile: at(`${PKI_FILES.etcdServer}.key`), caFile: at(`${PKI_FILES.etcdCa}.crt`) },
          nodes,
          extraUsers: buckets.map((b) => kvWriterUser(kvWriter(b), b)),
        }),
    });
    nats = Object.assign(handle, { pid: pidOfCommandLine(`${at('nats')}.conf`) });
    const natsUrl = nats.url;

    const startApiserver = async (o: ApiserverProcessOptions = {}): Promise<ApiserverProcess> => {
      const securePort = apiservers.length === 0 ? firstSecurePort : await freePort();
      const grpcPort = await freePort();
      const etcdClient = o.bucket
        ? await natsTlsFiles(kvWriter(o.bucket))
        : { caFile: at(`${PKI_FILES.etcdCa}.crt`), certFile: at(`${PKI_FILES.apiserverEtcdClient}.crt`), keyFile: at(`${PKI_FILES.apiserverEtcdClient}.key`) };
      // packages/kubelab/src/topology.ts: the apiserver's flags under `kubelab up`.
      const flags: Record<string, string> = {
        'bind-address': '127.0.0.1',
        'secure-port': String(securePort),
        'grpc-port': String(grpcPort),
        'nats-url': natsUrl,
        'etcd-cafile': etcdClient.caFile,
        'etcd-certfile': etcdClient.certFile,
        'etcd-keyfile': etcdClient.keyFile,
        'tls-cert-file': at(`${PKI_FILES.apiserver}.crt`),
        'tls-private-key-file': at(`${PKI_FILES.apiserver}.key`),
        'client-ca-file': at(`${PKI_FILES.ca}.crt`),
        'kubelet-client-certificate': at(`${PKI_FILES.apiserverKubeletClient}.crt`),
        'kubelet-client-key': at(`${PKI_FILES.apiserverKubeletClient}.key`),
        'authorization-mode': 'Node,RBAC',
        'enable-bootstrap-token-auth': 'true',
        'service-account-signing-key-file': at(PKI_FILES.saKey),
        'service-account-key-file': at(PKI_FILES.saPub),
        // As upstream's integration test servers: the benches' Nodes have no node lifecycle controller to lift the not-ready taint.
        'disable-admission-plugins': 'TaintNodesByCondition',
        ...(o.bucket ? { 'kv-bucket': o.bucket } : {}),
        ...o.flags,
      };
      const args = Object.entries(flags).map(([k, v]) => `--${k}=${v}`);
      const child = spawn(process.execPath, [...(o.nodeArgs ?? []), o.main ?? DEFAULT_MAIN, ...args], {
        stdio: ['ignore', o.inheritStdout ? 'inherit' : 'ignore', 'pipe'],
        env: { ...(o.env ?? process.env), KUBELAB_LOG_LEVEL: o.logLevel ?? 'warn' },
      });
      const tail = stderrTail(child);
      const died = exitSignal(child, 'apiserver');
      const proc: ApiserverProcess = { pid: child.pid!, grpcPort, securePort, address: `127.0.0.1:${grpcPort}`, args, stop: () => stopChild(child) };
      apiservers.push(proc);
      try {
        await waitForPort(grpcPort, { timeoutMs: 30_000, everyMs: 50, signal: died });
        await waitFor('the apiserver /readyz', async () => (await rest(proc, '/readyz').catch(() => ({ status: 0 }))).status === 200, { timeoutMs: 30_000, everyMs: 50, signal: died });
      } catch (e) {
        throw new Error(`${(e as Error).message}\n${tail()}`, { cause: e });
      }
      return proc;
    };
    const rest = (a: ApiserverProcess, path: string, r: RestRequest = {}) => {
      const who = r.as === 'anonymous' ? {} : (r.as ?? { cert: adminTls.certPem, key: adminTls.keyPem });
      return httpsRequest(a.securePort, path, pki.ca.certPem, { ...r, ...who });
    };

    if (opts.apiserver !== false) await startApiserver(opts.apiserver ?? {});
    const kubeconfigs = new Map<string, string>();
    const running = nats;
    return {
      dir,
      pki,
      nats: running,
      get apiserver() {
        if (!apiservers[0]) throw new Error('no apiserver started');
        return apiservers[0];
      },
      caPem: pki.ca.certPem,
      caFile: at(`${PKI_FILES.ca}.crt`),
      adminTls,
      async clientTls(identity) {
        const pair = await pki.ca.issue({ ...identity, usages: ['client'] });
        return { caPem: pki.ca.certPem, certPem: pair.cert, keyPem: pair.key };
      },
      async kubeconfig(who) {
        if (typeof who === 'string') return at(KUBECONFIG_FILES[who]);
        const path = kubeconfigs.get(who.node) ?? at(`nodes/${who.node}/kubelet.conf`);
        await mkdir(dirname(path), { recursive: true });
        await ensureKubeconfig(path, pki.ca, kubeletIdentity(who.node), { server });
        kubeconfigs.set(who.node, path);
        return path;
      },
      controllerManagerArgs: () => [
        `--kubeconfig=${at(KUBECONFIG_FILES.controllerManager)}`,
        '--use-service-account-credentials=true',
        `--root-ca-file=${at(`${PKI_FILES.ca}.crt`)}`,
        `--service-account-private-key-file=${at(PKI_FILES.saKey)}`,
        `--cluster-signing-cert-file=${at(`${PKI_FILES.ca}.crt`)}`,
        `--cluster-signing-key-file=${at(`${PKI_FILES.ca}.key`)}`,
      ],
      natsTlsFiles,
      natsTls,
      kvWriter,
      startApiserver,
      rest,
      security: {
        apiserver: 'HTTPS only: REST over TLS, gRPC with mutual TLS; certificates of a throwaway kubeadm PKI (RSA-2048)',
        authorizationMode: 'Node,RBAC',
        authentication: 'x509 client certificates, ServiceAccount tokens, bootstrap tokens',
        nats: 'TLS, client certificates of the etcd CA (verify_and_map), a user with subject permissions per identity',
        encryptionAtRest: 'off (no Secrets are written)',
      },
      async dispose() {
        for (const a of apiservers.reverse()) await a.stop();
        await running.dispose();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    for (const a of apiservers.reverse()) await a.stop();
    await nats?.dispose();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** The last 4 KB a child wrote to stderr, for the error when it dies. */
function stderrTail(child: ChildProcess): () => string {
  let tail = '';
  child.stderr?.on('data', (d: Buffer) => {
    tail = (tail + d.toString()).slice(-4000);
  });
  return () => tail;
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
