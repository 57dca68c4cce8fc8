// What `kubeadm init phase certs` and `phase kubeconfig` create, with
// kubeadm's file names under one directory (/etc/kubernetes on a node, the
// state dir of `pnpm kubelab up`). Idempotent: files that exist are kept, so
// a restarted cluster keeps its identities; only missing ones are made.

import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CertificateAuthority, type CertificateSpec, type CertKeyPem } from './certificate.js';
import { generateKeyPair, privateKeyToPem, publicKeyToPem, type KeyAlgorithm } from './keys.js';
import { buildKubeconfig } from './kubeconfig.js';

/** kubeadm's default cluster name and the DNS names of the `kubernetes` Service. */
export const DEFAULT_CLUSTER_NAME = 'kubernetes';
export const APISERVER_SERVICE_NAMES = ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'] as const;

/** Groups and users of kubeadm's identities (kubeadm ≥ 1.29 puts admin.conf in kubeadm:cluster-admins). */
export const GROUP_CLUSTER_ADMINS = 'kubeadm:cluster-admins';
export const GROUP_MASTERS = 'system:masters';

export interface ClusterPkiOptions {
  /** Directory playing /etc/kubernetes. */
  dir: string;
  clusterName?: string;
  /** The apiserver URL written into every kubeconfig (kubeadm's controlPlaneEndpoint). */
  server: string;
  /** The `kubernetes` Service's ClusterIP (first address of the service range). */
  serviceIp: string;
  /** More names and addresses the apiserver is reached by (node names, advertise address, loopback). */
  apiserverDnsNames?: readonly string[];
  apiserverIps?: readonly string[];
  /** Names and addresses NATS (etcd's role) is reached by. */
  etcdDnsNames?: readonly string[];
  etcdIps?: readonly string[];
  /** kubeadm's encryptionAlgorithm (default RSA-2048). */
  algorithm?: KeyAlgorithm;
}

/** The files, relative to the directory, as kubeadm names them. */
export const PKI_FILES = {
  ca: 'pki/ca',
  apiserver: 'pki/apiserver',
  apiserverKubeletClient: 'pki/apiserver-kubelet-client',
  frontProxyCa: 'pki/front-proxy-ca',
  frontProxyClient: 'pki/front-proxy-client',
  etcdCa: 'pki/etcd/ca',
  etcdServer: 'pki/etcd/server',
  etcdHealthcheckClient: 'pki/etcd/healthcheck-client',
  apiserverEtcdClient: 'pki/apiserver-etcd-client',
  saKey: 'pki/sa.key',
  saPub: 'pki/sa.pub',
} as const;

export const KUBECONFIG_FILES = {
  admin: 'admin.conf',
  superAdmin: 'super-admin.conf',
  controllerManager: 'controller-manager.conf',
  scheduler: 'scheduler.conf',
} as const;

/** The apiserver's identity towards kubelets (pki/apiserver-kubelet-client.crt; cluster-admin through its group). */
export const APISERVER_KUBELET_CLIENT = { commonName: 'kube-apiserver-kubelet-client', organizations: [GROUP_CLUSTER_ADMINS] } as const;

/** The client identities of kubeadm's kubeconfigs. */
export const KUBECONFIG_USERS: Record<keyof typeof KUBECONFIG_FILES, { commonName: string; organizations: string[] }> = {
  admin: { commonName: 'kubernetes-admin', organizations: [GROUP_CLUSTER_ADMINS] },
  superAdmin: { commonName: 'kubernetes-super-admin', organizations: [GROUP_MASTERS] },
  controllerManager: { commonName: 'system:kube-controller-manager', organizations: [] },
  scheduler: { commonName: 'system:kube-scheduler', organizations: [] },
};

async function writePrivate(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text, { mode: 0o600 });
  await chmod(path, 0o600);
}

async function writePublic(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text, { mode: 0o644 });
}

/** Loads `<base>.crt/.key` as a CA, creating it when missing. */
export async function ensureCa(dir: string, base: string, commonName: string, algorithm?: KeyAlgorithm): Promise<CertificateAuthority> {
  const crt = join(dir, `${base}.crt`);
  const key = join(dir, `${base}.key`);
  if (existsSync(crt) && existsSync(key)) return CertificateAuthority.fromPem(await readFile(crt, 'utf8'), await readFile(key, 'utf8'));
  const ca = await CertificateAuthority.create(commonName, algorithm ? { algorithm } : {});
  await writePublic(crt, ca.certPem);
  await writePrivate(key, ca.keyPem);
  return ca;
}

/** Issues `<base>.crt/.key` unless both exist; returns what is on disk. */
export async function ensureCert(dir: string, base: string, ca: CertificateAuthority, spec: CertificateSpec, algorithm?: KeyAlgorithm): Promise<CertKeyPem> {
  const crt = join(dir, `${base}.crt`);
  const key = join(dir, `${base}.key`);
  if (existsSync(crt) && existsSync(key)) return { cert: await readFile(crt, 'utf8'), key: await readFile(key, 'utf8') };
  const pair = await ca.issue(spec, algorithm ? { algorithm } : {});
  await writePublic(crt, pair.cert);
  await writePrivate(key, pair.key);
  return pair;
}

/** Writes a kubeconfig with a client certificate from `ca`, unless the file exists. */
export async function ensureKubeconfig(
  path: string,
  ca: CertificateAuthority,
  identity: { commonName: string; organizations?: readonly string[] },
  opts: { clusterName?: string; server: string; algorithm?: KeyAlgorithm },
): Promise<void> {
  if (existsSync(path)) return;
  const pair = await ca.issue({ ...identity, usages: ['client'] }, opts.algorithm ? { algorithm: opts.algorithm } : {});
  const text = buildKubeconfig({
    clusterName: opts.clusterName ?? DEFAULT_CLUSTER_NAME,
    server: opts.server,
    caPem: ca.certPem,
    userName: identity.commonName,
    clientCertPem: pair.cert,
    clientKeyPem: pair.key,
  });
  await writePrivate(path, text);
}

/** The identity of a node's kubelet (upstream: system:node:<name> in system:nodes). */
export function kubeletIdentity(nodeName: string): { commonName: string; organizations: string[] } {
  return { commonName: `system:node:${nodeName}`, organizations: ['system:nodes'] };
}

export interface ClusterPki {
  dir: string;
  ca: CertificateAuthority;
  etcdCa: CertificateAuthority;
  path(rel: string): string;
}

/** `kubeadm init phase certs all` + `phase kubeconfig all` for the control plane. */
export async function ensureClusterPki(opts: ClusterPkiOptions): Promise<ClusterPki> {
  const { dir, algorithm } = opts;
  const clusterName = opts.clusterName ?? DEFAULT_CLUSTER_NAME;
  const [ca, frontProxyCa, etcdCa] = await Promise.all([
    ensureCa(dir, PKI_FILES.ca, 'kubernetes', algorithm),
    ensureCa(dir, PKI_FILES.frontProxyCa, 'front-proxy-ca', algorithm),
    ensureCa(dir, PKI_FILES.etcdCa, 'etcd-ca', algorithm),
  ]);
  const etcdNames = ['localhost', ...(opts.etcdDnsNames ?? [])];
  await Promise.all([
    ensureCert(
      dir,
      PKI_FILES.apiserver,
      ca,
      {
        commonName: 'kube-apiserver',
        usages: ['server'],
        dnsNames: [...new Set([...APISERVER_SERVICE_NAMES, 'localhost', ...(opts.apiserverDnsNames ?? [])])],
        ipAddresses: [...new Set([opts.serviceIp, '127.0.0.1', ...(opts.apiserverIps ?? [])])],
      },
      algorithm,
    ),
    ensureCert(dir, PKI_FILES.apiserverKubeletClient, ca, { ...APISERVER_KUBELET_CLIENT, usages: ['client'] }, algorithm),
    ensureCert(dir, PKI_FILES.frontProxyClient, frontProxyCa, { commonName: 'front-proxy-client', usages: ['client'] }, algorithm),
    ensureCert(
      dir,
      PKI_FILES.etcdServer,
      etcdCa,
      { commonName: etcdNames[1] ?? 'localhost', usages: ['server', 'client'], dnsNames: etcdNames, ipAddresses: ['127.0.0.1', '::1', ...(opts.etcdIps ?? [])] },
      algorithm,
    ),
    ensureCert(dir, PKI_FILES.etcdHealthcheckClient, etcdCa, { commonName: 'kube-etcd-healthcheck-client', usages: ['client'] }, algorithm),
    ensureCert(dir, PKI_FILES.apiserverEtcdClient, etcdCa, { commonName: 'kube-apiserver-etcd-client', usages: ['client'] }, algorithm),
    ensureServiceAccountKey(dir),
    ...(Object.keys(KUBECONFIG_FILES) as (keyof typeof KUBECONFIG_FILES)[]).map((k) =>
      ensureKubeconfig(join(dir, KUBECONFIG_FILES[k]), ca, KUBECONFIG_USERS[k], { clusterName, server: opts.server, ...(algorithm ? { algorithm } : {}) }),
    ),
  ]);
  return { dir, ca, etcdCa, path: (rel) => join(dir, rel) };
}

/** sa.key / sa.pub: the ServiceAccount token signing pair (always RSA, as kubeadm's RS256 tokens). */
export async function ensureServiceAccountKey(dir: string): Promise<void> {
  const key = join(dir, PKI_FILES.saKey);
  const pub = join(dir, PKI_FILES.saPub);
  if (existsSync(key) && existsSync(pub)) return;
  const keys = await generateKeyPair('RSA-2048');
  await writePrivate(key, await privateKeyToPem(keys.privateKey));
  await writePublic(pub, await publicKeyToPem(keys.publicKey));
}
