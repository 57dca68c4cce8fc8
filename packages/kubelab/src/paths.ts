import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClusterInfo } from './topology.js';

/** The repository root: this file runs from packages/kubelab/dist. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** services/<name>/dist/main.js, or undefined when that service is not built (or not written yet). */
export function serviceEntry(service: string): string | undefined {
  const p = resolve(REPO_ROOT, 'services', service, 'dist', 'main.js');
  return existsSync(p) ? p : undefined;
}

export const DEFAULT_STATE_DIR = '.kubelab/local';
/** `kubelab join`'s state dir: this machine's /etc/kubernetes and /var/lib for the node it runs. */
export const DEFAULT_JOIN_STATE_DIR = '.kubelab/join';

/** The state dir as given (relative to the caller's cwd, as users expect). */
export function stateDirFrom(arg: string | undefined): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), arg ?? DEFAULT_STATE_DIR);
}

/** Where the compose stack's `kubeconfig` service writes the host's files (KUBECONFIG_DIR's default), a cluster.json among them. */
export const COMPOSE_STATE_DIR = '.kubelab/compose';

/**
 * The state dir a client command (`kubelab trace`, `kubelab kv`) reads: the
 * one given, else the local runner's when it has a cluster.json, else the
 * compose stack's when its `kubeconfig` service wrote one there, else the
 * runner's (which then names the default NATS URL).
 */
export function clientStateDir(arg: string | undefined): string {
  if (arg) return stateDirFrom(arg);
  const local = stateDirFrom(DEFAULT_STATE_DIR);
  if (existsSync(join(local, 'cluster.json'))) return local;
  const compose = stateDirFrom(COMPOSE_STATE_DIR);
  return existsSync(join(compose, 'cluster.json')) ? compose : local;
}

/** `<state-dir>/cluster.json` as `kubelab up` wrote it (undefined when absent: no runner has used this state dir). */
export function readClusterInfo(stateDir: string): Partial<ClusterInfo> | undefined {
  const file = join(stateDir, 'cluster.json');
  if (!existsSync(file)) return undefined;
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof info !== 'object' || info === null) throw new Error('not a JSON object');
    return info as Partial<ClusterInfo>;
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
}

/** What `kubelab join` ran in a state dir: the node and the offset its ports moved by (for `kubelab rules` on that machine). */
export interface JoinInfo {
  nodeName: string;
  portOffset: number;
}

export const JOIN_INFO_FILE = 'join.json';

/** `<state-dir>/join.json` as `kubelab join` wrote it (undefined when absent: not a joined node's state dir). */
export function readJoinInfo(stateDir: string): JoinInfo | undefined {
  const file = join(stateDir, JOIN_INFO_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as Partial<JoinInfo>;
    if (typeof info?.nodeName !== 'string' || typeof info.portOffset !== 'number') throw new Error('want {"nodeName": string, "portOffset": number}');
    return { nodeName: info.nodeName, portOffset: info.portOffset };
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
}
