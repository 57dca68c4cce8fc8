// The pod half of the local runner's socket-LB maps (socket-lb.ts): each
// loopback-mode runtime publishes its ready sandboxes' addresses (pod IP →
// container port → the 127.0.0.1 port serving it) on NATS at
// kubelab.net.<node>.pods, when they change and every PUBLISH_EVERY_MS, and
// keeps the union of every node's in <socket-LB dir>/pods.json, where its
// shims read it at each connect. A node not heard of for EXPIRE_MS (its
// runtime stopped) drops out, as a route to a vanished node would.

import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { natsAuthOptions, podMapSubject, POD_MAP_SUBJECT_ALL, type NatsClientTls, type NatsIdentity } from '@kubelab/nats';
import type { Logger } from '@kubelab/component-base';
import { PODS_FILE, portKey, type PodMap } from './socket-lb.js';

export const PUBLISH_EVERY_MS = 2000;
export const EXPIRE_MS = 10_000;
const TICK_MS = 500;

/** What the runtime knows of a sandbox (runtime.ts Sandbox). */
export interface SandboxAddresses {
  ip: string;
  state: string;
  ports: Record<string, { hostIp: string; hostPort: number }>;
}

/** This node's share of the map: ready sandboxes with a pod IP (host-network ones have none). Pure. */
export function localPodMap(sandboxes: Iterable<SandboxAddresses>): PodMap {
  const out: PodMap = {};
  for (const sb of sandboxes) {
    if (!sb.ip || sb.state !== 'SANDBOX_READY') continue;
    const ports: Record<string, string> = {};
    for (const [p, at] of Object.entries(sb.ports)) ports[portKey(p)] = `${at.hostIp}:${at.hostPort}`;
    out[sb.ip] = ports;
  }
  return out;
}

/** A published map read leniently; undefined when the message is not one. */
export function parsePodMapMessage(data: string): { node: string; pods: PodMap } | undefined {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const { node, pods } = v as { node?: unknown; pods?: unknown };
  if (typeof node !== 'string' || typeof pods !== 'object' || pods === null || Array.isArray(pods)) return undefined;
  const out: PodMap = {};
  for (const [ip, ports] of Object.entries(pods as Record<string, unknown>)) {
    if (typeof ports !== 'object' || ports === null) continue;
    out[ip] = Object.fromEntries(Object.entries(ports as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }
  return { node, pods: out };
}

/** The union of the nodes' maps (a later-heard node wins an IP both claim: the other's is stale). Pure. */
export function unionPodMaps(byNode: Iterable<{ pods: PodMap; seen: number }>): PodMap {
  const out: PodMap = {};
  for (const n of [...byNode].sort((a, b) => a.seen - b.seen)) Object.assign(out, n.pods);
  return out;
}

export interface PodMapOptions {
  node: string;
  /** The node's socket-LB directory. */
  dir: string;
  sandboxes: () => Iterable<SandboxAddresses>;
  log: Logger;
  /** Without NATS the map holds this node's pods only. */
  natsUrl?: string;
  identity?: NatsIdentity;
  tls?: NatsClientTls;
}

export async function startPodMap(opts: PodMapOptions): Promise<{ close(): Promise<void> }> {
  mkdirSync(opts.dir, { recursive: true });
  const peers = new Map<string, { pods: PodMap; seen: number }>();
  let written = '';
  let published = '';
  let publishedAt = 0;
  let nc: NatsConnection | undefined;
  let closed = false;

  const write = () => {
    const now = Date.now();
    for (const [node, p] of peers) if (node !== opts.node && now - p.seen > EXPIRE_MS) peers.delete(node);
    const text = JSON.stringify(unionPodMaps(peers.values()));
    if (text === written) return;
    const path = join(opts.dir, PODS_FILE);
    try {
      // A rename, so a shim reading at connect time never sees half a file.
      writeFileSync(`${path}.tmp`, text);
      renameSync(`${path}.tmp`, path);
      written = text;
    } catch (err) {
      opts.log.warn('cannot write the socket-LB pod map', { path, err: (err as Error).message });
    }
  };

  const tick = () => {
    const own = localPodMap(opts.sandboxes());
    const text = JSON.stringify(own);
    const now = Date.now();
    peers.set(opts.node, { pods: own, seen: now });
    if (nc && !nc.isClosed() && (text !== published || now - publishedAt >= PUBLISH_EVERY_MS)) {
      try {
        nc.publish(podMapSubject(opts.node), JSON.stringify({ node: opts.node, pods: own }));
        published = text;
        publishedAt = now;
      } catch (err) {
        opts.log.debug('cannot publish the pod map', { err: (err as Error).message });
      }
    }
    write();
  };

  if (opts.natsUrl && opts.identity) {
    void connect({ servers: opts.natsUrl, name: 'kubelab-containerd-pod-map', maxReconnectAttempts: -1, waitOnFirstConnect: true, reconnectTimeWait: 500, ...natsAuthOptions(opts.identity, opts.tls) })
      .then((c) => {
        if (closed) return void c.close();
        nc = c;
        const sub = c.subscribe(POD_MAP_SUBJECT_ALL, {
          callback: (err, msg) => {
            if (err) return;
            const m = parsePodMapMessage(msg.string());
            if (!m || m.node === opts.node) return;
            peers.set(m.node, { pods: m.pods, seen: Date.now() });
            write();
          },
        });
        void sub.closed.catch(() => {});
        opts.log.info('sharing the pod address map on NATS', { subject: podMapSubject(opts.node) });
        tick();
      })
      .catch((err: unknown) => opts.log.warn('cannot connect to NATS; the socket-LB pod map holds this node only', { err: (err as Error).message }));
  }
  tick();
  const timer = setInterval(tick, TICK_MS);
  timer.unref();
  return {
    close: async () => {
      closed = true;
      clearInterval(timer);
      if (nc && !nc.isClosed()) await nc.drain().catch(() => {});
    },
  };
}
