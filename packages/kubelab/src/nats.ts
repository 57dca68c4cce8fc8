// How the CLI commands reach the cluster's NATS (etcd's role): the one place
// for connection options. Each command has its own NATS identity (@kubelab/nats:
// `kubelab trace` reads records only, `kubelab kv` is the admin), whose
// certificate `kubelab up` issues into the state dir; --nats-*-file name others.

import { existsSync } from 'node:fs';
import { connect, type ConnectionOptions, type NatsConnection } from '@nats-io/transport-node';
import { FlagError } from '@kubelab/component-base';
import { natsAuthOptions, readNatsTls, type NatsClientTls, type NatsIdentity } from '@kubelab/nats';
import { clientStateDir, readClusterInfo } from './paths.js';
import { DEFAULT_PORTS, natsClientFiles } from './topology.js';

export const NOT_RUNNING = 'is the cluster running? (`pnpm kubelab up`, or `docker compose up`); --nats-url picks another NATS';

/** Where and as whom a command connects. */
export interface NatsTarget {
  url: string;
  /** Unset: plain NATS (a server without TLS). */
  tls?: NatsClientTls;
}

/** Connects as a named kubelab CLI client with `identity`; `extra` tunes reconnects for long-running viewers. */
export function connectNats(target: NatsTarget, identity: NatsIdentity, name: string, extra: Partial<ConnectionOptions> = {}): Promise<NatsConnection> {
  return connect({ servers: target.url, name, timeout: 3000, ...natsAuthOptions(identity, target.tls), ...extra });
}

/** --nats-url, else the state dir's cluster.json `natsUrl` (the runner's, or compose's in .kubelab/compose), else the runner's default port. */
export function resolveNatsUrl(flag: string, stateDirArg: string): string {
  if (flag) return flag;
  let url: unknown;
  try {
    url = readClusterInfo(clientStateDir(stateDirArg || undefined))?.natsUrl;
  } catch (err) {
    throw new FlagError((err as Error).message);
  }
  return typeof url === 'string' && url ? url : `nats://127.0.0.1:${DEFAULT_PORTS.nats}`;
}

/** The CLI's TLS flags (the containerd's names). */
export interface NatsTlsFlagValues {
  'nats-ca-file': string;
  'nats-cert-file': string;
  'nats-key-file': string;
}

/**
 * --nats-ca-file/--nats-cert-file/--nats-key-file when any is given, else
 * the command's certificate in the state dir when `kubelab up` issued one,
 * else none (plain NATS). A --nats-url without --state-dir names another
 * NATS, so the default state dir's certificates are not offered to it.
 */
export function resolveNatsTls(values: NatsTlsFlagValues & { 'nats-url': string }, stateDirArg: string, who: 'trace' | 'admin'): NatsClientTls | undefined {
  const flags = { caFile: values['nats-ca-file'], certFile: values['nats-cert-file'], keyFile: values['nats-key-file'] };
  if (flags.caFile || flags.certFile || flags.keyFile) return readNatsTls(flags);
  if (values['nats-url'] && !stateDirArg) return undefined;
  const files = natsClientFiles(clientStateDir(stateDirArg || undefined), who);
  return existsSync(files.caFile) && existsSync(files.certFile) && existsSync(files.keyFile) ? readNatsTls(files) : undefined;
}
