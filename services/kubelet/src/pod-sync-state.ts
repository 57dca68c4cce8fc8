// Everything the kubelet remembers about one pod between syncs, in one record
// (upstream keeps such state on the pod worker's podSyncStatus and in
// side caches: the reason cache, the pod-start tracker, ...). The record is
// created by PodSyncStates.of and dropped only by PodSyncStates.drop, so a
// removed pod cannot leave a piece of its state behind.

import type { PodStatus } from '@kubelab/api';
import type { StatusInput, SyncReason } from './status/generate.js';

/** Why a kubelet module failed the pod (eviction, admission), and the grace period to kill it with. */
export type PodEviction = NonNullable<StatusInput['evict']> & { gracePeriodSeconds: number };

export interface PodSyncState {
  /** When this kubelet first saw the pod, until it first ran (pod start duration; whether a sync continues the pod's trace). */
  firstSeenAt?: number;
  /** Per container: why it is not running (upstream ReasonCache), shown as its waiting reason. */
  readonly reasons: Map<string, SyncReason>;
  /** Set once a kubelet module failed the pod: its status says so and its containers stop. */
  eviction?: PodEviction;
  /** The DeadlineExceeded event was recorded (once per pod). */
  deadlineEventRecorded: boolean;
  /** A static pod's status computed before its mirror pod existed, written once the mirror is created. */
  statusAwaitingMirror?: PodStatus;
  /** containerID (`containerd://…`) → precise start time in ms, for probe initial delays. */
  readonly containerStarts: Map<string, number>;
}

export class PodSyncStates {
  private readonly states = new Map<string, PodSyncState>();

  /** The pod's record, if it has one. */
  get(uid: string): PodSyncState | undefined {
    return this.states.get(uid);
  }

  /** The pod's record, created empty on first use (the only place a record is created). */
  of(uid: string): PodSyncState {
    let s = this.states.get(uid);
    if (!s) this.states.set(uid, (s = { reasons: new Map(), deadlineEventRecorded: false, containerStarts: new Map() }));
    return s;
  }

  /** Forgets the pod (the only place a record is dropped). */
  drop(uid: string): void {
    this.states.delete(uid);
  }

  /** When the pod's container started (asked on every probe: one lookup, not a scan of every pod). */
  containerStartedAt(podUid: string, containerId: string): number | undefined {
    return this.states.get(podUid)?.containerStarts.get(containerId);
  }
}
