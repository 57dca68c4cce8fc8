// How the CLI commands reach the cluster's NATS (etcd's role): the one place
// for connection options, so credentials and TLS (admin for `kv`, a read-only
// user for `trace`) are added here once NATS requires them.

import { connect, type ConnectionOptions, type NatsConnection } from '@nats-io/transport-node';
import { FlagError } from '@kubelab/component-base';
import { readClusterInfo, stateDirFrom } from './paths.js';
import { DEFAULT_PORTS } from './topology.js';

export const NOT_RUNNING = 'is the cluster running? (`pnpm kubelab up`, or `docker compose up`); --nats-url picks another NATS';

/** Connects as a named kubelab CLI client; `extra` tunes reconnects for long-running viewers. */
export function connectNats(url: string, name: string, extra: Partial<ConnectionOptions> = {}): Promise<NatsConnection> {
  return connect({ servers: url, name, timeout: 3000, ...extra });
}

/** --nats-url, else the state dir's cluster.json `natsUrl`, else the runner's default port (where compose publishes NATS too). */
export function resolveNatsUrl(flag: string, stateDirArg: string): string {
  if (flag) return flag;
  let url: unknown;
  try {
    url = readClusterInfo(stateDirFrom(stateDirArg || undefined))?.natsUrl;
  } catch (err) {
    throw new FlagError((err as Error).message);
  }
  return typeof url === 'string' && url ? url : `nats://127.0.0.1:${DEFAULT_PORTS.nats}`;
}
