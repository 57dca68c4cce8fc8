// kubeconfig files (upstream: clientcmd's v1 Config): what kubeadm writes
// for the admin and each component, and how components read theirs back.

import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse, stringify } from 'yaml';

export interface KubeconfigSpec {
  clusterName: string;
  /** https://host:port of the apiserver. */
  server: string;
  caPem: string;
  userName: string;
  /** Client certificate credentials… */
  clientCertPem?: string;
  clientKeyPem?: string;
  /** …or paths to them (a kubelet's rotated `kubelet-client-current.pem`, both in one file)… */
  clientCertificateFile?: string;
  clientKeyFile?: string;
  /** …or a bearer token (a bootstrap token in bootstrap-kubelet.conf). */
  token?: string;
  /** Default `<user>@<cluster>`, as kubeadm names contexts. */
  contextName?: string;
  /** The context's namespace (the kubelet's TLS bootstrap writes `default`). */
  namespace?: string;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** The YAML kubeadm writes (embedded *-data fields, one cluster, user and context). */
export function buildKubeconfig(spec: KubeconfigSpec): string {
  const context = spec.contextName ?? `${spec.userName}@${spec.clusterName}`;
  const user: Record<string, string> = {};
  if (spec.clientCertPem) user['client-certificate-data'] = b64(spec.clientCertPem);
  if (spec.clientKeyPem) user['client-key-data'] = b64(spec.clientKeyPem);
  if (spec.clientCertificateFile) user['client-certificate'] = spec.clientCertificateFile;
  if (spec.clientKeyFile) user['client-key'] = spec.clientKeyFile;
  if (spec.token) user.token = spec.token;
  return stringify({
    apiVersion: 'v1',
    clusters: [{ cluster: { 'certificate-authority-data': b64(spec.caPem), server: spec.server }, name: spec.clusterName }],
    contexts: [{ context: { cluster: spec.clusterName, user: spec.userName, ...(spec.namespace ? { namespace: spec.namespace } : {}) }, name: context }],
    'current-context': context,
    kind: 'Config',
    preferences: {},
    users: [{ name: spec.userName, user }],
  });
}

/** What a client needs from the current context: where, whom to trust, who it is. */
export interface ClientCredentials {
  server: string;
  caPem?: string;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
  clientCertPem?: string;
  clientKeyPem?: string;
  token?: string;
  /** The user's tokenFile, resolved (a projected ServiceAccount token the kubelet refreshes: read it again, not once). */
  tokenFile?: string;
  /** Where the file was read from (resolves relative paths; rotation rewrites it). */
  path?: string;
}

export class KubeconfigError extends Error {}

type Named<T> = { name?: string } & Record<string, T | undefined>;

function pick<T>(list: unknown, name: string, what: string, key: string): T {
  const entry = Array.isArray(list) ? (list as Named<T>[]).find((e) => e?.name === name) : undefined;
  if (!entry || entry[key] === undefined) throw new KubeconfigError(`${what} "${name}" not found in the kubeconfig`);
  return entry[key] as T;
}

/** Parses a kubeconfig's current context; file references resolve against `baseDir`. */
export function parseKubeconfig(text: string, opts: { baseDir?: string; context?: string } = {}): ClientCredentials {
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new KubeconfigError(`invalid kubeconfig: ${(e as Error).message}`);
  }
  if (!doc || typeof doc !== 'object') throw new KubeconfigError('invalid kubeconfig: not a YAML mapping');
  const contextName = opts.context ?? (doc['current-context'] as string | undefined);
  if (!contextName) throw new KubeconfigError('invalid configuration: no current context is set');
  const ctx = pick<{ cluster: string; user: string }>(doc.contexts, contextName, 'context', 'context');
  const cluster = pick<Record<string, unknown>>(doc.clusters, ctx.cluster, 'cluster', 'cluster');
  const user = pick<Record<string, unknown>>(doc.users, ctx.user, 'user', 'user');
  const file = (p: unknown): string | undefined => (typeof p === 'string' && p ? readFileSync(isAbsolute(p) || !opts.baseDir ? p : resolve(opts.baseDir, p), 'utf8') : undefined);
  const data = (d: unknown): string | undefined => (typeof d === 'string' && d ? Buffer.from(d, 'base64').toString('utf8') : undefined);
  const creds: ClientCredentials = {
    server: String(cluster.server ?? ''),
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
  };
  const ca = data(cluster['certificate-authority-data']) ?? file(cluster['certificate-authority']);
  if (ca) creds.caPem = ca;
  if (typeof cluster['tls-server-name'] === 'string') creds.tlsServerName = cluster['tls-server-name'];
  const cert = data(user['client-certificate-data']) ?? file(user['client-certificate']);
  const key = data(user['client-key-data']) ?? file(user['client-key']);
  if (cert) creds.clientCertPem = cert;
  if (key) creds.clientKeyPem = key;
  const token = typeof user.token === 'string' ? user.token : typeof user.tokenFile === 'string' ? file(user.tokenFile)?.trim() : undefined;
  if (token) creds.token = token;
  if (typeof user.token !== 'string' && typeof user.tokenFile === 'string' && user.tokenFile) {
    creds.tokenFile = isAbsolute(user.tokenFile) || !opts.baseDir ? user.tokenFile : resolve(opts.baseDir, user.tokenFile);
  }
  if (!creds.server) throw new KubeconfigError(`invalid configuration: no server found for cluster "${ctx.cluster}"`);
  return creds;
}

export function loadKubeconfig(path: string, opts: { context?: string } = {}): ClientCredentials {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new KubeconfigError(`cannot read kubeconfig ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return { ...parseKubeconfig(text, { baseDir: dirname(path), ...opts }), path };
}

/**
 * kubeadm's kubelet-finalize phase on a kubeconfig's text: the current
 * context's user names the kubelet's rotated pair by path (certificate and
 * key in one file) instead of embedding kubeadm init's first pair.
 */
export function pointUserAtCertificateFile(text: string, pemPath: string): string {
  const doc = parse(text) as Record<string, unknown>;
  const contextName = doc['current-context'] as string | undefined;
  if (!contextName) throw new KubeconfigError('invalid configuration: no current context is set');
  const ctx = pick<{ user: string }>(doc.contexts, contextName, 'context', 'context');
  const user = pick<Record<string, unknown>>(doc.users, ctx.user, 'user', 'user');
  delete user['client-certificate-data'];
  delete user['client-key-data'];
  user['client-certificate'] = pemPath;
  user['client-key'] = pemPath;
  return stringify(doc);
}
