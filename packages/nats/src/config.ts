// nats-server's configuration file for a cluster, as one pure function: the
// local runner (`kubelab up`) and the compose stack (`kubelab nats-config`)
// write the same text. Mirrors etcd's --client-cert-auth with
// --trusted-ca-file: only certificates from the etcd CA connect, and each is
// mapped to a user (identities.ts) whose permissions bound what it can do.

import { natsUsers, type NatsUser, type NatsUsersOptions } from './identities.js';

/** nats-server's TLS files: its serving pair (kubeadm's pki/etcd/server) and the CA clients must chain to (pki/etcd/ca). */
export interface NatsServerTlsFiles {
  certFile: string;
  keyFile: string;
  caFile: string;
}

export interface NatsServerConfigOptions extends NatsUsersOptions {
  /** host:port of the client port. */
  listen: string;
  /** host:port of the monitoring port (`/healthz`); none without it. Not authenticated: keep it on loopback or a private network. */
  monitor?: string;
  /** JetStream's file store. */
  storeDir: string;
  tls: NatsServerTlsFiles;
  /** Largest message (default NATS_MAX_PAYLOAD). */
  maxPayload?: string;
  /**
   * The port leaf nodes (nodes on other machines, `kubelab join`) connect to:
   * TLS with a certificate of the cluster CA both ways, the client's subject
   * mapped to a user as on the client port (leafNodeNatsUser).
   */
  leafnodes?: { listen: string; tls: NatsServerTlsFiles };
  /** Users besides the cluster's own (natsUsers), e.g. a benchmark's raw KV writer; none in a cluster. */
  extraUsers?: readonly NatsUser[];
}

/** Objects up to etcd's 1.5 MiB request limit fit in one KV entry. */
export const NATS_MAX_PAYLOAD = '2MB';
/** Seconds a TLS handshake may take: nats-server's 0.5 s default is short for RSA keys on a busy machine. */
const TLS_HANDSHAKE_TIMEOUT_SECONDS = 5;

const q = (s: string) => JSON.stringify(s);
const list = (items: readonly string[]) => `[${items.map(q).join(', ')}]`;

/** An allow list; nothing allowed is written as an explicit deny of everything. */
function direction(allow: readonly string[]): string {
  return allow.length > 0 ? `{ allow: ${list(allow)} }` : `{ deny: [">"] }`;
}

function userBlock(u: NatsUser): string {
  return `    { user: ${q(u.user)}, permissions: { publish: ${direction(u.permissions.publish)}, subscribe: ${direction(u.permissions.subscribe)} } }`;
}

/** The whole nats-server.conf. Pure. */
export function natsServerConfig(opts: NatsServerConfigOptions): string {
  const lines = [
    `listen: ${q(opts.listen)}`,
    ...(opts.monitor ? [`http: ${q(opts.monitor)}`] : []),
    `max_payload: ${opts.maxPayload ?? NATS_MAX_PAYLOAD}`,
    `jetstream {`,
    `  store_dir: ${q(opts.storeDir)}`,
    `}`,
    `# Clients must present a certificate from the CA; its subject names the user below (else "Authorization Violation").`,
    `tls {`,
    `  cert_file: ${q(opts.tls.certFile)}`,
    `  key_file: ${q(opts.tls.keyFile)}`,
    `  ca_file: ${q(opts.tls.caFile)}`,
    `  verify_and_map: true`,
    `  timeout: ${TLS_HANDSHAKE_TIMEOUT_SECONDS}`,
    `}`,
    ...(opts.leafnodes
      ? [
          `# Nodes on other machines: a leaf node per node, its kubelet's certificate (cluster CA) names its user.`,
          `leafnodes {`,
          `  listen: ${q(opts.leafnodes.listen)}`,
          `  tls {`,
          `    cert_file: ${q(opts.leafnodes.tls.certFile)}`,
          `    key_file: ${q(opts.leafnodes.tls.keyFile)}`,
          `    ca_file: ${q(opts.leafnodes.tls.caFile)}`,
          `    verify_and_map: true`,
          `    timeout: ${TLS_HANDSHAKE_TIMEOUT_SECONDS}`,
          `  }`,
          `}`,
        ]
      : []),
    `authorization {`,
    `  users: [`,
    ...[...natsUsers(opts), ...(opts.extraUsers ?? [])].map(userBlock),
    `  ]`,
    `}`,
  ];
  return lines.join('\n') + '\n';
}
