// kubelab's loopback pod network (no upstream counterpart: upstream dials pod
// IPs directly). A runtime in loopback mode serves each pod port on
// 127.0.0.1; probes and httpGet lifecycle hooks ask it where, dial there, and
// still report the pod address the user wrote.

import { sandboxPortKey, type SandboxPortMap } from '@kubelab/proto';
import { CriClientError } from '../kuberuntime/cri.js';
import type { RemoteRuntime } from '../kuberuntime/remote.js';
import type { ProbeTransport } from '../prober/prober.js';

export interface HostPort {
  host: string;
  port: number;
}

/** Resolves a pod IP and port to where the runtime really serves it. */
export type DialTarget = (podIP: string, port: number) => Promise<HostPort>;

/** Where nothing listens: a loopback pod without a listener on the port (dials are refused). */
const NOTHING_LISTENS: HostPort = { host: '127.0.0.1', port: 1 };

/** A sandbox the dialer found with a pod IP, and where its runtime last said its ports are served. */
interface KnownSandbox {
  id: string;
  ports: SandboxPortMap | undefined;
}

/** The runtime could not be asked (down, or too slow): not an answer about the sandbox. */
const unreachable = (err: unknown): boolean => CriClientError.isInstance(err) && (err.code === 'Unavailable' || err.code === 'DeadlineExceeded');

/**
 * Resolves pod IPs through the runtime's sandboxes. A pod IP's sandbox is remembered, so a probe costs one verbose
 * status (loopback mode: a port's listener may come later) or none (pod-ip mode), not a status per sandbox on the
 * node; and while the runtime cannot be reached a remembered sandbox is dialed where it last served, as upstream's
 * prober dials pod IPs without the runtime (the shims keep the containers running). A pod IP no ready sandbox has
 * is dialed as is.
 */
export function loopbackDialer(rt: Pick<RemoteRuntime, 'listPodSandbox' | 'sandboxAddress'>): DialTarget {
  const known = new Map<string, KnownSandbox>();

  /** Asks every ready sandbox for its address, remembering the ready ones only (a lookup bounds what is kept). */
  const lookUp = async (podIP: string): Promise<KnownSandbox | undefined> => {
    const ready = (await rt.listPodSandbox()).filter((s) => s.state === 'SANDBOX_READY');
    const ids = new Set(ready.map((s) => s.id));
    for (const [ip, k] of known) if (!ids.has(k.id)) known.delete(ip);
    const remembered = new Set([...known.values()].map((k) => k.id));
    for (const s of ready) {
      if (remembered.has(s.id)) continue;
      const a = await rt.sandboxAddress(s.id).catch(() => undefined);
      if (a?.ready && a.ip) known.set(a.ip, { id: s.id, ports: a.ports });
      if (a?.ip === podIP) break;
    }
    return known.get(podIP);
  };

  /** The remembered sandbox of podIP with its current ports; undefined when it is gone or no longer has the IP. */
  const refresh = async (podIP: string, k: KnownSandbox): Promise<KnownSandbox | undefined> => {
    // pod-ip mode: the IP itself serves, whichever sandbox holds it now.
    if (!k.ports) return k;
    try {
      const a = await rt.sandboxAddress(k.id);
      if (a.ready && a.ip === podIP) return ((k.ports = a.ports), k);
    } catch (err) {
      if (unreachable(err)) return k;
    }
    known.delete(podIP);
    return undefined;
  };

  return async (podIP, port) => {
    const remembered = known.get(podIP);
    const k = (remembered && (await refresh(podIP, remembered))) ?? (await lookUp(podIP).catch(() => undefined));
    if (!k?.ports) return { host: podIP, port };
    const addr = k.ports[sandboxPortKey(port)];
    if (!addr) return NOTHING_LISTENS;
    const i = addr.lastIndexOf(':');
    return { host: addr.slice(0, i), port: Number(addr.slice(i + 1)) };
  };
}

/** The port of a URL, including the scheme's default that URL leaves out. */
export function urlPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** url with its host and port replaced by the dial target. */
function retarget(url: URL, t: HostPort): URL {
  const real = new URL(url.href);
  real.hostname = t.host;
  real.port = String(t.port);
  return real;
}

/** Every occurrence of `from` in text replaced by `to`. */
const replaceAll = (text: string, from: string, to: string): string => text.split(from).join(to);

/** A probe transport that dials through `dial`; failure outputs name the pod address, not the loopback mapping. */
export function dialingProbeTransport(transport: ProbeTransport, dial: DialTarget | undefined): ProbeTransport {
  if (!dial) return transport;
  return {
    exec: transport.exec,
    http: async (url, headers, timeoutMs) => {
      const port = urlPort(url);
      const t = await dial(url.hostname, port);
      const real = retarget(url, t);
      const r = await transport.http(real, { Host: url.host, ...headers }, timeoutMs);
      if (r.result !== 'Failure') return r;
      return { ...r, output: replaceAll(replaceAll(r.output, real.href, url.href), `${t.host}:${t.port}`, `${url.hostname}:${port}`) };
    },
    tcp: async (host, port, timeoutMs) => {
      const t = await dial(host, port);
      const r = await transport.tcp(t.host, t.port, timeoutMs);
      return r.result === 'Failure' ? { ...r, output: replaceAll(r.output, `${t.host}:${t.port}`, `${host}:${port}`) } : r;
    },
    // The output already names the pod address (displayAddr).
    grpc: async (target) => transport.grpc({ ...target, ...(target.host ? await dial(target.host, target.port) : {}) }),
  };
}

/** An httpGet lifecycle hook through `dial`: an error text, or undefined when the hook succeeded. */
export function httpHookVia(transport: ProbeTransport, dial: DialTarget | undefined): (url: URL, timeoutMs: number) => Promise<string | undefined> {
  return async (url, timeoutMs) => {
    const real = dial ? retarget(url, await dial(url.hostname, urlPort(url))) : new URL(url.href);
    const r = await transport.http(real, {}, timeoutMs);
    if (r.result === 'Unknown') return r.error;
    return r.result === 'Failure' ? r.output : undefined;
  };
}
