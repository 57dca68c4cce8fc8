// kube-proxy's service health check server (upstream
// pkg/proxy/healthcheck/service_health.go): for every LoadBalancer Service
// with externalTrafficPolicy Local, an HTTP server on its healthCheckNodePort
// answers whether this node has ready endpoints of it, so a cloud load
// balancer sends traffic only to nodes that can take it: 200 with local
// endpoints (and a healthy proxy), 503 without.

import { createServer, type Server } from 'node:http';
import type { Logger } from '@kubelab/component-base';
import type { ProxySnapshot } from './proxy/types.js';

/** `namespace/name` → healthCheckNodePort of every Service that has one (ServicePortMap.HealthCheckNodePorts). */
export function healthCheckNodePorts(snap: ProxySnapshot): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of snap.services) if (s.healthCheckNodePort > 0) out.set(`${s.namespace}/${s.service}`, s.healthCheckNodePort);
  return out;
}

/** `namespace/name` → how many ready endpoints run on this node (EndpointsMap.LocalReadyEndpoints; distinct addresses over the ports). */
export function localReadyEndpoints(snap: ProxySnapshot): Map<string, number> {
  const byService = new Map<string, Set<string>>();
  for (const s of snap.services) {
    const key = `${s.namespace}/${s.service}`;
    const set = byService.get(key) ?? new Set<string>();
    byService.set(key, set);
    for (const ep of snap.endpoints.get(s.name) ?? []) if (ep.isLocal && ep.ready) set.add(ep.ip);
  }
  return new Map([...byService].map(([k, v]) => [k, v.size]));
}

export interface HealthAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The answer for one Service (hcHandler.ServeHTTP): upstream's indented JSON and headers. */
export function serviceHealthAnswer(key: string, localEndpoints: number, proxyHealthy: boolean): HealthAnswer {
  const [namespace, name] = key.split('/') as [string, string];
  return {
    status: localEndpoints > 0 && proxyHealthy ? 200 : 503,
    headers: { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff', 'X-Load-Balancing-Endpoint-Weight': String(localEndpoints) },
    body: [
      '{',
      '\t"service": {',
      `\t\t"namespace": ${JSON.stringify(namespace)},`,
      `\t\t"name": ${JSON.stringify(name)}`,
      '\t},',
      `\t"localEndpoints": ${localEndpoints},`,
      `\t"serviceProxyHealthy": ${proxyHealthy}`,
      '}',
    ].join('\n'),
  };
}

interface Listener {
  port: number;
  server: Server;
}

export class ServiceHealthServer {
  private readonly listeners = new Map<string, Listener>();
  private counts = new Map<string, number>();

  constructor(
    private readonly opts: {
      /** Where the health ports listen (upstream: the nodePortAddresses, all by default). */
      host: string;
      proxyHealthy: () => boolean;
      logger: Logger;
    },
  ) {}

  /** Opens a server per new health check port and closes those no longer wanted (SyncServices). */
  syncServices(ports: Map<string, number>): void {
    for (const [key, l] of this.listeners) {
      if (ports.get(key) === l.port) continue;
      this.listeners.delete(key);
      l.server.close();
      this.opts.logger.info('Closing healthcheck', { service: key, port: l.port });
    }
    for (const [key, port] of ports) {
      if (this.listeners.has(key)) continue;
      const server = createServer((req, res) => {
        const a = serviceHealthAnswer(key, this.counts.get(key) ?? 0, this.opts.proxyHealthy());
        res.writeHead(a.status, a.headers);
        res.end(req.method === 'HEAD' ? undefined : a.body);
      });
      // A port another process holds (e.g. the local runner's nodes in one namespace) is logged, as upstream's FailedToStartServiceHealthcheck.
      server.on('error', (err) => {
        this.opts.logger.error('Failed to start healthcheck', { service: key, port, err: err.message });
        if (this.listeners.get(key)?.server === server) this.listeners.delete(key);
      });
      server.listen(port, this.opts.host);
      this.listeners.set(key, { port, server });
      this.opts.logger.info('Opening healthcheck', { service: key, port });
    }
  }

  /** The local endpoint counts the answers report (SyncEndpoints). */
  syncEndpoints(counts: Map<string, number>): void {
    this.counts = counts;
  }

  /** Ports with an open server (tests, /rules). */
  ports(): Map<string, number> {
    return new Map([...this.listeners].map(([k, l]) => [k, l.port]));
  }

  async close(): Promise<void> {
    const all = [...this.listeners.values()];
    this.listeners.clear();
    await Promise.all(all.map((l) => new Promise<void>((r) => l.server.close(() => r()))));
  }
}
