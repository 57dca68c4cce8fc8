// Reaching a pod's port for port forwarding, as containerd's portForward
// does inside the sandbox's network namespace (dial localhost:<port>, tcp4
// then tcp6). Here a container port is wherever its simulated server
// listens (network.ts: a loopback port, or the pod IP); a port nobody
// listens on is refused with containerd's text.

import { connect, type Socket } from 'node:net';
import type { Runtime } from '../runtime.js';

/** The network namespace path containerd's CNI setup would give the sandbox (cni-<uuid>), shaped from its id. */
export function netnsPath(sandboxId: string): string {
  const h = sandboxId.padEnd(32, '0');
  return `/var/run/netns/cni-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** containerd's error when nothing accepts on the port (both address families refused). */
export function connectionRefused(sandboxId: string, port: number): string {
  return (
    `failed to execute portforward in network namespace ${JSON.stringify(netnsPath(sandboxId))}: ` +
    `failed to connect to localhost:${port} inside namespace ${JSON.stringify(sandboxId)}, ` +
    `IPv4: dial tcp4 127.0.0.1:${port}: connect: connection refused IPv6 dial tcp6 [::1]:${port}: connect: connection refused `
  );
}

/** Connects to the sandbox's `port`; rejects with containerd's reason. */
export function dialSandboxPort(rt: Pick<Runtime, 'getSandbox'>, sandboxId: string, port: number): Promise<Socket> {
  let sb;
  try {
    sb = rt.getSandbox(sandboxId);
  } catch (e) {
    return Promise.reject(e as Error);
  }
  const where = sb.state === 'SANDBOX_READY' ? sb.ports[String(port)] : undefined;
  if (!where) return Promise.reject(new Error(connectionRefused(sb.id, port)));
  return new Promise((resolve, reject) => {
    const s = connect({ host: where.hostIp, port: where.hostPort });
    s.once('connect', () => resolve(s));
    s.once('error', () => reject(new Error(connectionRefused(sb.id, port))));
  });
}
