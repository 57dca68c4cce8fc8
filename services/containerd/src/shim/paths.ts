// Where a sandbox's shim keeps its state, as upstream's runtime v2 lays it
// out under containerd's state directory (/run/containerd): the task
// directory io.containerd.runtime.v2.task/<namespace>/<id>/ (the bundle: the
// shim's cwd, its `address` and `shim.pid`), and the socket under s/ named by
// a hash, since a unix socket path must stay under 108 bytes.

import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** The CRI plugin's containerd namespace. */
export const NAMESPACE = 'k8s.io';
export const SHIM_BINARY = 'containerd-shim-runc-v2';

export function taskRoot(stateDir: string): string {
  return join(stateDir, 'io.containerd.runtime.v2.task', NAMESPACE);
}

export function taskDir(stateDir: string, id: string): string {
  return join(taskRoot(stateDir), id);
}

/** The shim's socket: s/<hash of containerd's address, namespace and id> (upstream hashes the same three). */
export function shimSocket(stateDir: string, address: string, id: string): string {
  return join(stateDir, 's', createHash('sha256').update(`${address}/${NAMESPACE}/${id}`).digest('hex').slice(0, 32));
}

/** The shim's command line as `ps` shows it. */
export function shimArgs(id: string, address: string): string[] {
  return ['-namespace', NAMESPACE, '-id', id, '-address', address];
}

/**
 * The shim host's directory (its cwd): `address` (its control socket),
 * `shim.pid` (its real pid), `log` (its stderr) and `ps.json`, which points
 * the node's ps at the task directories of the sandboxes it runs.
 */
export function hostDir(stateDir: string): string {
  return join(stateDir, 'io.containerd.runtime.v2.shim-host');
}

/** The shim host's control socket (Create a sandbox's shim), beside the shims' sockets. */
export function hostSocket(stateDir: string, address: string): string {
  return join(stateDir, 's', createHash('sha256').update(`${address}/${NAMESPACE}/shim-host`).digest('hex').slice(0, 32));
}

/** The host's answer to a Create that came as it was going (shim/main.ts). */
export const HOST_EXITING = 'shim host is exiting';

/** The shim host's command line: a shim's without -id (ps shows its sandboxes' shims in its place). */
export function hostArgs(address: string): string[] {
  return ['-namespace', NAMESPACE, '-address', address];
}

/** What containerd hands its shim in the bundle (upstream: options.json with the runc options). */
export interface ShimOptions {
  socket: string;
  podIp: string;
  networkMode: 'loopback' | 'pod-ip';
  timeScale: number;
  /** Host the shim's streaming server (Exec, Attach) binds. */
  streamServerAddress: string;
  /** Loopback mode: the node's socket-LB directory (socket-lb.ts), read at each connect. */
  socketLbDir?: string;
}
