// framework.NodeInfo and PodInfo: a node with the pods the scheduler believes
// are on it (bound or assumed), their summed requests and the host ports they
// hold. Pod-derived numbers are computed once per PodInfo, not per cycle.

import type { Node, Pod, Taint } from '@kubelab/api';
import { addResource, cloneResource, emptyResource, nodeAllocatable, podRequests, type Resource } from './resource.js';

/** One host port a pod asks for (hostIP defaults to 0.0.0.0 = every address). */
export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

/** A pod with what the scheduler derives from it once. */
export interface PodInfo {
  pod: Pod;
  /** namespace/name */
  key: string;
  requests: Resource;
  /** Requests with upstream's defaults for containers that ask for nothing (scoring only). */
  nonZeroRequests: Resource;
  hostPorts: HostPort[];
}

export function podKey(pod: Pod): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
}

export function podHostPorts(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  for (const c of all) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      out.push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort });
    }
  }
  return out;
}

export function newPodInfo(pod: Pod): PodInfo {
  return {
    pod,
    key: podKey(pod),
    requests: podRequests(pod, false),
    nonZeroRequests: podRequests(pod, true),
    hostPorts: podHostPorts(pod),
  };
}

/** Host ports in use on a node: ip → set of "protocol/port" (upstream HostPortInfo). */
export class HostPortInfo {
  private readonly byIP = new Map<string, Map<string, number>>();

  add(p: HostPort): void {
    let m = this.byIP.get(p.ip);
    if (!m) this.byIP.set(p.ip, (m = new Map()));
    const k = `${p.protocol}/${p.port}`;
    m.set(k, (m.get(k) ?? 0) + 1);
  }

  remove(p: HostPort): void {
    const m = this.byIP.get(p.ip);
    if (!m) return;
    const k = `${p.protocol}/${p.port}`;
    const n = (m.get(k) ?? 0) - 1;
    if (n > 0) m.set(k, n);
    else m.delete(k);
    if (m.size === 0) this.byIP.delete(p.ip);
  }

  /** 0.0.0.0 conflicts with every address; other addresses only with themselves and 0.0.0.0. */
  checkConflict(p: HostPort): boolean {
    const k = `${p.protocol}/${p.port}`;
    if (p.ip === '0.0.0.0') {
      for (const m of this.byIP.values()) if (m.has(k)) return true;
      return false;
    }
    return !!this.byIP.get(p.ip)?.has(k) || !!this.byIP.get('0.0.0.0')?.has(k);
  }

  get size(): number {
    return this.byIP.size;
  }
}

export class NodeInfo {
  node: Node | undefined;
  name: string;
  readonly pods: PodInfo[] = [];
  private readonly index = new Map<string, number>();
  requested: Resource = emptyResource();
  nonZeroRequested: Resource = emptyResource();
  allocatable: Resource = emptyResource();
  allowedPodNumber = 0;
  usedPorts = new HostPortInfo();
  /** Bumped on every change (upstream uses it for incremental snapshots). */
  generation = 0;

  constructor(node?: Node) {
    this.name = node?.metadata.name ?? '';
    if (node) this.setNode(node);
  }

  setNode(node: Node): void {
    this.node = node;
    this.name = node.metadata.name ?? '';
    const { allocatable, allowedPodNumber } = nodeAllocatable(node);
    this.allocatable = allocatable;
    this.allowedPodNumber = allowedPodNumber;
    this.generation++;
  }

  get taints(): Taint[] | undefined {
    return this.node?.spec?.taints;
  }

  hasPod(key: string): boolean {
    return this.index.has(key);
  }

  addPodInfo(pi: PodInfo): void {
    if (this.index.has(pi.key)) this.removePod(pi.key);
    this.index.set(pi.key, this.pods.length);
    this.pods.push(pi);
    addResource(this.requested, pi.requests);
    addResource(this.nonZeroRequested, pi.nonZeroRequests);
    for (const p of pi.hostPorts) this.usedPorts.add(p);
    this.generation++;
  }

  addPod(pod: Pod): void {
    this.addPodInfo(newPodInfo(pod));
  }

  /** Removes by namespace/name; false when the pod was not here. */
  removePod(key: string): boolean {
    const i = this.index.get(key);
    if (i === undefined) return false;
    const pi = this.pods[i]!;
    const last = this.pods.pop()!;
    if (last !== pi) {
      this.pods[i] = last;
      this.index.set(last.key, i);
    }
    this.index.delete(key);
    addResource(this.requested, pi.requests, -1);
    addResource(this.nonZeroRequested, pi.nonZeroRequests, -1);
    for (const p of pi.hostPorts) this.usedPorts.remove(p);
    this.generation++;
    return true;
  }

  /** A deep-enough copy for what-if evaluation (preemption dry runs). */
  clone(): NodeInfo {
    const c = new NodeInfo();
    c.node = this.node;
    c.name = this.name;
    c.allocatable = cloneResource(this.allocatable);
    c.allowedPodNumber = this.allowedPodNumber;
    for (const pi of this.pods) c.addPodInfo(pi);
    c.generation = this.generation;
    return c;
  }
}
