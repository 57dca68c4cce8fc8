// kubelab's loopback pod network (no upstream counterpart: upstream dials pod
// IPs directly). A runtime in loopback mode serves each pod port on
// 127.0.0.1; probes and httpGet lifecycle hooks ask it where, dial there, and
// still report the pod address the user wrote.

import { sandboxPortKey } from '@kubelab/proto';
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

/** Asks the runtime's sandboxes which one has podIP and where it maps port; a pod IP it does not know is dialed as is. */
export function loopbackDialer(rt: Pick<RemoteRuntime, 'listPodSandbox' | 'podSandboxStatus' | 'sandboxPortMap'>): DialTarget {
  return async (podIP, port) => {
    const ready = (await rt.listPodSandbox()).filter((s) => s.state === 'SANDBOX_READY');
    for (const s of ready) {
      const st = await rt.podSandboxStatus(s.id).catch(() => undefined);
      if (st?.network?.ip !== podIP) continue;
      const map = await rt.sandboxPortMap(s.id).catch(() => undefined);
      const addr = map?.[sandboxPortKey(port)];
      if (addr) {
        const i = addr.lastIndexOf(':');
        return { host: addr.slice(0, i), port: Number(addr.slice(i + 1)) };
      }
      if (map) return NOTHING_LISTENS;
    }
    return { host: podIP, port };
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
