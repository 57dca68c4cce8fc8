// A NATS cluster in etcd's role for `kubelab up --ha`: three nats-server
// processes joined by cluster routes on loopback, JetStream clustered (its
// meta group and every replicated stream run RAFT, as etcd's members do), so
// the object store's bucket at replicas 3 survives one server and stops
// writing without a majority. Each server's file is the single server's
// (@kubelab/nats natsServerConfig: client TLS, the users of the etcd CA) plus
// its name and the cluster block; routes use mutual TLS with kubeadm's etcd
// peer certificate, as etcd members verify each other's peer certificates.

import { natsServerConfig, type NatsServerConfigOptions, type NatsServerTlsFiles } from '@kubelab/nats';

/** The cluster's name (nats-server's cluster.name; every member must agree). */
export const NATS_CLUSTER_NAME = 'kubelab';
/** nats-server's default route port, the first member's (moved by --port-offset). */
export const NATS_ROUTE_PORT = 6222;

/** One member: its name (server_name, the JetStream RAFT peer's) and ports. */
export interface NatsMember {
  name: string;
  client: number;
  monitor: number;
  route: number;
  storeDir: string;
  /** The address the member's peers dial (default 127.0.0.1; compose: its service name). */
  host?: string;
  /** The address it listens on (default 127.0.0.1; compose: 0.0.0.0). */
  bind?: string;
}

/** The members of a cluster of `size` on loopback: member i gets the base ports plus i-1 (nats-1 keeps the single server's). */
export function natsMembers(size: number, base: { client: number; monitor: number; route: number }, storeDir: (name: string) => string): NatsMember[] {
  return Array.from({ length: size }, (_, i) => {
    const name = `nats-${i + 1}`;
    return { name, client: base.client + i, monitor: base.monitor + i, route: base.route + i, storeDir: storeDir(name) };
  });
}

/** The client URLs of every member, as a comma list (the apiserver's --nats-url, as --etcd-servers lists every member). */
export function natsClusterUrls(members: readonly NatsMember[]): string {
  return members.map((m) => `nats://127.0.0.1:${m.client}`).join(',');
}

export interface NatsClusterMemberOptions extends Omit<NatsServerConfigOptions, 'listen' | 'monitor' | 'storeDir'> {
  /** Route TLS: the peer pair and the CA every peer's certificate must chain to. */
  routeTls: NatsServerTlsFiles;
}

const q = (s: string) => JSON.stringify(s);

/** Seconds a route's TLS handshake may take (the client port's 5 s, for the same busy machine). */
const ROUTE_TLS_TIMEOUT_SECONDS = 5;

/** One member's nats-server.conf: the single server's text with its name and the cluster block (routes to every other member). Pure. */
export function natsClusterMemberConfig(opts: NatsClusterMemberOptions, self: NatsMember, members: readonly NatsMember[]): string {
  const { routeTls, ...base } = opts;
  const bind = self.bind ?? '127.0.0.1';
  const single = natsServerConfig({ ...base, listen: `${bind}:${self.client}`, monitor: `${bind}:${self.monitor}`, storeDir: self.storeDir });
  const routes = members.filter((m) => m.name !== self.name).map((m) => `    ${q(`nats-route://${m.host ?? '127.0.0.1'}:${m.route}`)}`);
  const lines = [
    `# Member ${self.name} of the ${members.length}-server cluster "${NATS_CLUSTER_NAME}": JetStream's RAFT groups need a majority (${Math.floor(members.length / 2) + 1}) to write.`,
    `server_name: ${q(self.name)}`,
    single.trimEnd(),
    `cluster {`,
    `  name: ${q(NATS_CLUSTER_NAME)}`,
    `  listen: ${q(`${bind}:${self.route}`)}`,
    `  routes: [`,
    ...routes,
    `  ]`,
    `  # Routes are mutual TLS with the etcd peer certificate (etcd's --peer-client-cert-auth).`,
    `  tls {`,
    `    cert_file: ${q(routeTls.certFile)}`,
    `    key_file: ${q(routeTls.keyFile)}`,
    `    ca_file: ${q(routeTls.caFile)}`,
    `    verify: true`,
    `    timeout: ${ROUTE_TLS_TIMEOUT_SECONDS}`,
    `  }`,
    `}`,
  ];
  return lines.join('\n') + '\n';
}
