// NodePorts in the local runner: the nodes share the host's 127.0.0.1, so a
// NodePort is one listening socket there, held by whichever node's
// kube-proxy binds it first (the others find it taken and retry at each
// sync, taking over when its holder goes). A connection is forwarded to one
// of the Service's endpoints at random (externalTrafficPolicy Local: this
// node's), at the loopback port the runtimes' pod map (pods.json in the
// socket-LB directory) gives for it. A NodePort with no usable endpoint is
// not listened on, so the host's connect is refused, as kube-proxy's REJECT
// does. TCP only.

import { readFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Logger } from '@kubelab/component-base';
import { categorizeEndpoints } from './proxy/endpoints.js';
import type { ProxySnapshot } from './proxy/types.js';

/** nodePort → the endpoints (`ip:port`) a connection to it may go to. Pure. */
export function nodePortEndpoints(snap: ProxySnapshot): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const svc of snap.services) {
    if (svc.protocol !== 'TCP' || svc.nodePort <= 0) continue;
    const eps = categorizeEndpoints(svc, snap.endpoints.get(svc.name) ?? []);
    out.set(
      svc.nodePort,
      (svc.externalTrafficPolicy === 'Local' ? eps.local : eps.cluster).map((e) => e.endpoint),
    );
  }
  return out;
}

/** Where an endpoint is served on the host: the pod map's loopback port, or the endpoint itself when it is on 127.0.0.1. Pure. */
export function loopbackTarget(pods: unknown, endpoint: string): { host: string; port: number } | undefined {
  const i = endpoint.lastIndexOf(':');
  const ip = endpoint.slice(0, i);
  const port = Number(endpoint.slice(i + 1));
  if (ip === '127.0.0.1') return { host: ip, port };
  const at = (pods as Record<string, Record<string, unknown> | undefined> | undefined)?.[ip]?.[`${port}/TCP`];
  if (typeof at !== 'string') return undefined;
  const j = at.lastIndexOf(':');
  return { host: at.slice(0, j), port: Number(at.slice(j + 1)) };
}

export class LoopbackNodePorts {
  private readonly held = new Map<number, Server>();
  private endpoints = new Map<number, string[]>();
  private readonly sockets = new Set<Socket>();
  private readonly taken = new Set<number>();
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
  ) {}

  /** After each sync: listen on the NodePorts with endpoints, stop on the others. */
  sync(snap: ProxySnapshot): void {
    if (this.closed) return;
    this.endpoints = nodePortEndpoints(snap);
    for (const [port, server] of this.held) {
      if (this.endpoints.get(port)?.length) continue;
      this.held.delete(port);
      server.close();
    }
    for (const [port, eps] of this.endpoints) if (eps.length && !this.held.has(port)) this.listen(port);
  }

  private listen(port: number): void {
    const server = createServer((client) => this.forward(port, client));
    this.held.set(port, server);
    server.once('error', (err: NodeJS.ErrnoException) => {
      this.held.delete(port);
      if (err.code === 'EADDRINUSE') {
        // Another node's kube-proxy (they share 127.0.0.1), or another program: tried again at the next sync.
        if (!this.taken.has(port)) this.logger.info('NodePort already taken on 127.0.0.1; another node serves it', { nodePort: port });
        this.taken.add(port);
      } else this.logger.error('Cannot open NodePort', { nodePort: port, err: err.message });
    });
    server.listen(port, '127.0.0.1', () => {
      this.taken.delete(port);
      this.logger.info('Serving NodePort on 127.0.0.1', { nodePort: port });
    });
  }

  private forward(port: number, client: Socket): void {
    this.sockets.add(client);
    client.once('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    const eps = this.endpoints.get(port) ?? [];
    let pods: unknown;
    try {
      pods = JSON.parse(readFileSync(join(this.dir, 'pods.json'), 'utf8'));
    } catch {
      pods = {};
    }
    const endpoint = eps[Math.floor(Math.random() * eps.length)];
    const target = endpoint ? loopbackTarget(pods, endpoint) : undefined;
    if (!target) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    this.sockets.add(upstream);
    upstream.once('close', () => this.sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.end());
    client.pipe(upstream);
    upstream.pipe(client);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const s of this.sockets) s.destroy();
    await Promise.all([...this.held.values()].map((s) => new Promise<void>((r) => s.close(() => r()))));
    this.held.clear();
  }
}
