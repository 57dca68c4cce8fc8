// The sandbox network note in verbose PodSandboxStatus info (kubelab's own,
// in the role of the runtime-specific entries of the CRI `info` map): how the
// runtime wired a pod's network and where each container port is served. The
// runtime writes it, the kubelet's loopback dialer reads it; this module is
// the one place both take its key, shape and port keys from.

import { jsonObject, parseJsonObject } from './json-record.js';

/** The `info` key of PodSandboxStatusResponse (only set when the request is verbose). */
export const SANDBOX_NETWORK_INFO_KEY = 'kubelab.io/network';

/** Container port key (`"<port>/TCP"`) → the `host:port` address serving it. */
export type SandboxPortMap = Record<string, string>;

export interface SandboxNetwork {
  /** `loopback`: ports served on 127.0.0.1 at mapped addresses (the pod IP is simulated); `pod-ip`: served on the pod IP. */
  mode: string;
  podIP: string;
  /** For a human reading `crictl inspectp`. */
  note?: string;
  ports: SandboxPortMap;
}

/** A port's key in the port map: only TCP ports are served. */
export function sandboxPortKey(port: number | string): string {
  return `${port}/TCP`;
}

/** The `info` entry for a sandbox's network. */
export function encodeSandboxNetwork(net: SandboxNetwork): Record<typeof SANDBOX_NETWORK_INFO_KEY, string> {
  return { [SANDBOX_NETWORK_INFO_KEY]: JSON.stringify(net) };
}

/**
 * The network note from a verbose status's `info` map, read leniently (a
 * wrong-typed field gets its default, a non-string port is left out);
 * undefined when the runtime wrote none or it is not JSON.
 */
export function decodeSandboxNetwork(info: Record<string, string> | undefined): SandboxNetwork | undefined {
  const data = info?.[SANDBOX_NETWORK_INFO_KEY];
  if (!data) return undefined;
  const r = parseJsonObject(data);
  if (!r) return undefined;
  const ports = Object.entries(jsonObject(r.ports) ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string');
  const net: SandboxNetwork = { mode: typeof r.mode === 'string' ? r.mode : '', podIP: typeof r.podIP === 'string' ? r.podIP : '', ports: Object.fromEntries(ports) };
  if (typeof r.note === 'string') net.note = r.note;
  return net;
}
