// The runtime's last-read status of each pod (upstream
// pkg/kubelet/container/cache.go): a sync reads the runtime only when PLEG
// saw a change since the last read, or when it asks for a fresh read after
// acting itself.

import { emptyPodStatus, type RuntimePodStatus } from '../kuberuntime/podstatus.js';
import type { PodLifecycleEvent } from '../pleg/generic.js';

/** Reads one pod from the runtime (the runtime manager, or a traced sync's view of it). */
export interface PodStatusReader {
  getPodStatus(uid: string, name?: string, namespace?: string): Promise<RuntimePodStatus>;
}

/** What the cache needs to know of the PLEG: whether it relisted yet, and whether that relist saw the pod. */
export interface RelistView {
  readonly relists: number;
  hasPod(uid: string): boolean;
}

/**
 * Pods whose cached status PLEG events make stale. A start the cache already
 * shows (the kubelet's own, read back right after it acted) needs no sync;
 * a death always does.
 */
export function podsMadeStale(events: readonly PodLifecycleEvent[], cached: (uid: string) => RuntimePodStatus | undefined): Set<string> {
  const stale = new Set<string>();
  for (const e of events) {
    const c = cached(e.podUid);
    const alreadyShown = !!c && e.type === 'ContainerStarted' && (c.containers.some((x) => x.id === e.data && x.state === 'running') || c.sandboxes.some((s) => s.id === e.data && s.ready));
    if (!alreadyShown) stale.add(e.podUid);
  }
  return stale;
}

export class RuntimeCache {
  private readonly statuses = new Map<string, RuntimePodStatus>();
  /** Pods asked about at least once: a pod new to the kubelet is known empty only on its first read. */
  private readonly asked = new Set<string>();

  constructor(private readonly pleg: RelistView) {}

  get(uid: string): RuntimePodStatus | undefined {
    return this.statuses.get(uid);
  }

  set(uid: string, status: RuntimePodStatus): void {
    this.statuses.set(uid, status);
  }

  /** The cached status is out of date: the next read goes to the runtime. */
  invalidate(uid: string): void {
    this.statuses.delete(uid);
  }

  /** The pod is gone: forget everything about it. */
  forget(uid: string): void {
    this.statuses.delete(uid);
    this.asked.delete(uid);
  }

  /**
   * The pod's runtime status: the cached one unless `fresh`; a pod never
   * asked about that the PLEG's relist did not see has nothing in the
   * runtime yet (no CRI call); otherwise read through `reader` and cache it.
   */
  async status(uid: string, name: string | undefined, namespace: string | undefined, reader: PodStatusReader, fresh = false): Promise<RuntimePodStatus> {
    const cached = this.statuses.get(uid);
    if (cached && !fresh) return cached;
    const firstAsk = !this.asked.has(uid);
    this.asked.add(uid);
    if (!fresh && !cached && firstAsk && this.pleg.relists > 0 && !this.pleg.hasPod(uid)) return emptyPodStatus(uid, name, namespace);
    const rs = await reader.getPodStatus(uid, name, namespace);
    this.statuses.set(uid, rs);
    return rs;
  }
}
