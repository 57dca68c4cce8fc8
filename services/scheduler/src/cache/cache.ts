// The scheduler cache (internal/cache): NodeInfos built from the informers
// plus pods the scheduler has assumed onto a node before the API confirms the
// binding, so a burst of pods does not overcommit a node while the watch
// catches up. An assumed pod is confirmed when the informer shows it bound,
// forgotten when binding fails, and (with a TTL) expired if it never shows up.

import type { Node, Pod } from '@kubelab/api';
import type { SnapshotLister } from '../framework/handle.js';
import { NodeInfo, newPodInfo, podKey } from '../framework/node-info.js';

interface PodState {
  pod: Pod;
  /** Set once binding finished; the assumed pod expires after it (TTL > 0 only). */
  deadline: number | undefined;
  bindingFinished: boolean;
}

export interface CacheOptions {
  now?: () => number;
  /** 0 = assumed pods never expire (upstream's current default). */
  assumedPodTTLMs?: number;
}

export class CacheError extends Error {
  override name = 'CacheError';
}

export class SchedulerCache implements SnapshotLister {
  private readonly nodes = new Map<string, NodeInfo>();
  /** Nodes with a Node object, in scheduling order. */
  private readonly nodeList: NodeInfo[] = [];
  private readonly nodeIndex = new Map<string, number>();
  private readonly podStates = new Map<string, PodState>();
  private readonly assumed = new Set<string>();
  private readonly now: () => number;
  private readonly ttl: number;

  constructor(opts: CacheOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.ttl = opts.assumedPodTTLMs ?? 0;
  }

  // ---- SnapshotLister: the scheduling cycle reads the live cache (it runs synchronously).

  list(): readonly NodeInfo[] {
    return this.nodeList;
  }

  get(name: string): NodeInfo | undefined {
    const n = this.nodes.get(name);
    return n?.node ? n : undefined;
  }

  nodeCount(): number {
    return this.nodeList.length;
  }

  podCount(): number {
    return this.podStates.size;
  }

  isAssumedPod(pod: Pod): boolean {
    return this.assumed.has(podKey(pod));
  }

  getPod(pod: Pod): Pod | undefined {
    return this.podStates.get(podKey(pod))?.pod;
  }

  private nodeInfoFor(name: string): NodeInfo {
    let n = this.nodes.get(name);
    if (!n) {
      n = new NodeInfo();
      n.name = name;
      this.nodes.set(name, n);
    }
    return n;
  }

  private addPodToNode(pod: Pod): void {
    const name = pod.spec?.nodeName;
    if (!name) throw new CacheError(`pod ${podKey(pod)} has no nodeName`);
    this.nodeInfoFor(name).addPodInfo(newPodInfo(pod));
  }

  private removePodFromNode(pod: Pod): void {
    const name = pod.spec?.nodeName;
    if (!name) return;
    const n = this.nodes.get(name);
    if (!n) return;
    n.removePod(podKey(pod));
    if (!n.node && n.pods.length === 0) this.nodes.delete(name);
  }

  // ---- assumed pods

  /** Counts the pod (spec.nodeName set to the chosen node) on its node before binding. */
  assumePod(pod: Pod): void {
    const key = podKey(pod);
    if (this.podStates.has(key)) throw new CacheError(`pod ${key} is in the cache, so can't be assumed`);
    this.addPodToNode(pod);
    this.podStates.set(key, { pod, deadline: undefined, bindingFinished: false });
    this.assumed.add(key);
  }

  /** Binding succeeded; with a TTL the assumption now has a deadline. */
  finishBinding(pod: Pod): void {
    const key = podKey(pod);
    const st = this.podStates.get(key);
    if (!st || !this.assumed.has(key)) return;
    st.bindingFinished = true;
    if (this.ttl > 0) st.deadline = this.now() + this.ttl;
  }

  /** Binding failed: take the assumed pod off its node. */
  forgetPod(pod: Pod): void {
    const key = podKey(pod);
    const st = this.podStates.get(key);
    if (!st) return;
    if (!this.assumed.has(key)) throw new CacheError(`pod ${key} wasn't assumed so cannot be forgotten`);
    if (st.pod.spec?.nodeName !== pod.spec?.nodeName) {
      throw new CacheError(`pod ${key} was assumed on ${st.pod.spec?.nodeName} but assigned to ${pod.spec?.nodeName}`);
    }
    this.removePodFromNode(st.pod);
    this.podStates.delete(key);
    this.assumed.delete(key);
  }

  /** Drops assumed pods whose binding finished longer than the TTL ago; returns their keys. */
  cleanupExpiredAssumedPods(): string[] {
    if (this.ttl <= 0) return [];
    const now = this.now();
    const out: string[] = [];
    for (const key of this.assumed) {
      const st = this.podStates.get(key)!;
      if (!st.bindingFinished || st.deadline === undefined || now < st.deadline) continue;
      this.removePodFromNode(st.pod);
      this.podStates.delete(key);
      this.assumed.delete(key);
      out.push(key);
    }
    return out;
  }

  // ---- informer events for assigned pods

  /** A bound pod appeared: confirms an assumed pod (moving it if bound elsewhere) or adds it. */
  addPod(pod: Pod): void {
    const key = podKey(pod);
    const st = this.podStates.get(key);
    if (st && this.assumed.has(key)) {
      if (st.pod.spec?.nodeName !== pod.spec?.nodeName) this.removePodFromNode(st.pod);
      else this.nodes.get(pod.spec!.nodeName!)?.removePod(key);
      this.addPodToNode(pod);
      this.podStates.set(key, { pod, deadline: undefined, bindingFinished: true });
      this.assumed.delete(key);
      return;
    }
    if (st) {
      // Already added (e.g. a relist): treat as an update.
      this.updatePod(st.pod, pod);
      return;
    }
    this.addPodToNode(pod);
    this.podStates.set(key, { pod, deadline: undefined, bindingFinished: true });
  }

  updatePod(oldPod: Pod, newPod: Pod): void {
    const key = podKey(newPod);
    const st = this.podStates.get(key);
    if (!st) return this.addPod(newPod);
    if (this.assumed.has(key)) return this.addPod(newPod);
    this.removePodFromNode(st.pod ?? oldPod);
    this.addPodToNode(newPod);
    st.pod = newPod;
  }

  removePod(pod: Pod): void {
    const key = podKey(pod);
    const st = this.podStates.get(key);
    if (!st) return;
    this.removePodFromNode(st.pod);
    this.podStates.delete(key);
    this.assumed.delete(key);
  }

  // ---- nodes

  addNode(node: Node): NodeInfo {
    const name = node.metadata.name ?? '';
    const n = this.nodeInfoFor(name);
    n.setNode(node);
    if (!this.nodeIndex.has(name)) {
      this.nodeIndex.set(name, this.nodeList.length);
      this.nodeList.push(n);
    }
    return n;
  }

  updateNode(_old: Node, node: Node): NodeInfo {
    return this.addNode(node);
  }

  /** The NodeInfo stays while pods still reference it (they will be deleted too), but leaves the list. */
  removeNode(node: Node): void {
    const name = node.metadata.name ?? '';
    const i = this.nodeIndex.get(name);
    if (i !== undefined) {
      const last = this.nodeList.pop()!;
      if (i < this.nodeList.length) {
        this.nodeList[i] = last;
        this.nodeIndex.set(last.name, i);
      }
      this.nodeIndex.delete(name);
    }
    const n = this.nodes.get(name);
    if (!n) return;
    n.node = undefined;
    if (n.pods.length === 0) this.nodes.delete(name);
  }

  /** A consistent summary for debugging and tests: node → assumed/bound pod keys. */
  dump(): Record<string, { pods: string[]; assumed: string[] }> {
    const out: Record<string, { pods: string[]; assumed: string[] }> = {};
    for (const [name, n] of this.nodes) {
      const keys = n.pods.map((p) => p.key).sort();
      out[name] = { pods: keys, assumed: keys.filter((k) => this.assumed.has(k)) };
    }
    return out;
  }
}
