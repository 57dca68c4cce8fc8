// The pods this kubelet should run and the mirror pods standing in the API
// for its static pods (upstream pkg/kubelet/pod/pod_manager.go). Desired pods
// are keyed by kubelet UID (a static pod's own UID); mirror pods by
// namespace/name, the only thing they share with their static pod.

import type { Pod } from '@kubelab/api';

/** A pod the kubelet should run; `static`: it came from a manifest file and reports through a mirror pod. */
export interface DesiredPod {
  readonly pod: Pod;
  readonly static: boolean;
}

/** `namespace/name`, as mirror pods are matched to static pods. */
export function fullName(pod: Pod): string {
  return `${pod.metadata.namespace}/${pod.metadata.name}`;
}

/** Whether anything but status and bookkeeping metadata differs: a status-only update needs no sync (upstream checkAndUpdatePod). */
export function specChanged(a: Pod, b: Pod): boolean {
  const view = (p: Pod) => JSON.stringify([p.spec, p.metadata.labels, p.metadata.annotations, p.metadata.deletionTimestamp, p.metadata.deletionGracePeriodSeconds]);
  return view(a) !== view(b);
}

/**
 * The pod config operation an API pod's change is (upstream config.checkAndUpdatePod):
 * new → ADD; spec/labels/annotations changed → UPDATE, or DELETE once a deletion
 * timestamp is set; only the status changed → RECONCILE; nothing → undefined.
 */
export function podUpdateOp(prev: Pod | undefined, next: Pod): 'ADD' | 'UPDATE' | 'DELETE' | 'RECONCILE' | undefined {
  if (!prev) return 'ADD';
  if (specChanged(prev, next)) return next.metadata.deletionTimestamp ? 'DELETE' : 'UPDATE';
  return JSON.stringify(prev.status) !== JSON.stringify(next.status) ? 'RECONCILE' : undefined;
}

export class PodManager {
  private readonly desired = new Map<string, DesiredPod>();
  private readonly mirrors = new Map<string, Pod>();

  get(uid: string): DesiredPod | undefined {
    return this.desired.get(uid);
  }

  has(uid: string): boolean {
    return this.desired.has(uid);
  }

  /** Adds or replaces a desired pod; returns the pod it replaced. */
  set(uid: string, pod: Pod, isStatic: boolean): Pod | undefined {
    const prev = this.desired.get(uid)?.pod;
    this.desired.set(uid, { pod, static: isStatic });
    return prev;
  }

  remove(uid: string): void {
    this.desired.delete(uid);
  }

  uids(): string[] {
    return [...this.desired.keys()];
  }

  entries(): [string, DesiredPod][] {
    return [...this.desired.entries()];
  }

  /** A desired pod by namespace and name. */
  find(namespace: string, name: string): { uid: string; pod: Pod } | undefined {
    for (const [uid, d] of this.desired) if (d.pod.metadata.namespace === namespace && d.pod.metadata.name === name) return { uid, pod: d.pod };
    return undefined;
  }

  /** The mirror pod of a static pod, if the API has one. */
  mirrorOf(staticPod: Pod): Pod | undefined {
    return this.mirrors.get(fullName(staticPod));
  }

  setMirror(mirror: Pod): void {
    this.mirrors.set(fullName(mirror), mirror);
  }

  /** Forgets the mirror pod under that name, unless `uid` names another object than the one known. */
  removeMirror(mirror: Pod, uid?: string): void {
    const key = fullName(mirror);
    if (uid === undefined || this.mirrors.get(key)?.metadata.uid === uid) this.mirrors.delete(key);
  }

  /** UIDs of the static pods a mirror pod stands for (by name). */
  staticPodsMirroredBy(mirror: Pod): string[] {
    const key = fullName(mirror);
    return this.entries()
      .filter(([, d]) => d.static && fullName(d.pod) === key)
      .map(([uid]) => uid);
  }
}
