// The status the kubelet reports for each pod (upstream kubelet_pods.go
// generateAPIPodStatus and the SetPodStatus calls of SyncPod, with
// active_deadline.go's ShouldEvict): computed from the runtime's view, the
// pod's last status, its sync reasons and probe results, failed when a
// kubelet module says so, and handed to the status manager — or held for a
// static pod whose mirror pod does not exist yet.

import { isPodTerminal, type PodStatus } from '@kubelab/api';
import type { Clock } from '@kubelab/client';
import { podRef, type Recorder } from '../events.js';
import type { RuntimePodStatus } from '../kuberuntime/podstatus.js';
import type { DesiredPod, PodManager } from '../pod/pod-manager.js';
import type { PodSyncStates } from '../pod-sync-state.js';
import type { ProberManager } from '../prober/manager.js';
import { DEADLINE_EXCEEDED_MESSAGE, DEADLINE_EXCEEDED_REASON, pastActiveDeadline } from './deadline.js';
import { generateAPIPodStatus, type StatusInput } from './generate.js';
import type { StatusManager } from './manager.js';

export interface PodStatusReporterOptions {
  podManager: PodManager;
  podStates: PodSyncStates;
  statusManager: Pick<StatusManager, 'getPodStatus' | 'setPodStatus'>;
  prober: Pick<ProberManager, 'updatePodStatus'>;
  /** The runtime's name for container IDs (`containerd`), known once it answered Version. */
  runtimeName: () => string;
  nodeIP: string;
  /** Kubelet time runs this many times faster: active deadlines pass sooner. */
  timeScale: number;
  recorder: Recorder;
  clock: Clock;
  /** kubelet_pod_start_duration_seconds (absent: not recorded). */
  observePodStart?: (seconds: number) => void;
}

export class PodStatusReporter {
  constructor(private readonly o: PodStatusReporterOptions) {}

  /** The status last computed for a pod, falling back to the API object's (the mirror pod's for a static pod). */
  lastStatus(uid: string, d: DesiredPod): PodStatus | undefined {
    const cached = this.o.statusManager.getPodStatus(uid);
    if (cached) return cached;
    if (d.static) return this.o.podManager.mirrorOf(d.pod)?.status;
    return d.pod.status;
  }

  /** Whether the pod's last status is Succeeded or Failed: it never runs again. */
  hasTerminalStatus(uid: string, d: DesiredPod): boolean {
    return isPodTerminal({ ...d.pod, status: this.lastStatus(uid, d) });
  }

  /** The pod's active deadline passed and no sync has reported it yet (upstream activeDeadlineHandler.ShouldSync). */
  deadlinePassedUnreported(uid: string, d: DesiredPod): boolean {
    if (!d.pod.spec?.activeDeadlineSeconds || this.o.podStates.get(uid)?.deadlineEventRecorded || this.hasTerminalStatus(uid, d)) return false;
    return pastActiveDeadline(d.pod, this.lastStatus(uid, d), this.o.clock.now(), this.o.timeScale);
  }

  /** The pod's API status from the runtime's view of it; `terminal`: the pod will not run again. */
  compute(uid: string, d: DesiredPod, rs: RuntimePodStatus, terminal = false): PodStatus {
    const state = this.o.podStates.of(uid);
    const runtimeName = this.o.runtimeName();
    for (const c of rs.containers) if (c.state === 'running') state.containerStarts.set(`${runtimeName}://${c.id}`, c.startedAt);
    return generateAPIPodStatus({
      pod: d.pod,
      runtime: rs,
      oldStatus: this.lastStatus(uid, d),
      reasons: state.reasons,
      runtimeName,
      nodeIPs: [this.o.nodeIP],
      now: this.o.clock.now(),
      podIsTerminal: terminal,
      applyProbes: (pod, status) => this.o.prober.updatePodStatus(pod, status),
      evict: this.shouldEvict(uid, d),
    });
  }

  /** A kubelet module failing the pod (upstream PodSyncHandlers' ShouldEvict): eviction, then the active deadline. */
  private shouldEvict(uid: string, d: DesiredPod): StatusInput['evict'] {
    const state = this.o.podStates.of(uid);
    if (state.eviction) {
      const { reason, message, condition } = state.eviction;
      return { reason, message, condition };
    }
    if (this.hasTerminalStatus(uid, d)) return undefined;
    if (!pastActiveDeadline(d.pod, this.lastStatus(uid, d), this.o.clock.now(), this.o.timeScale)) return undefined;
    if (!state.deadlineEventRecorded) {
      state.deadlineEventRecorded = true;
      this.o.recorder.event(podRef(d.pod), 'Normal', DEADLINE_EXCEEDED_REASON, DEADLINE_EXCEEDED_MESSAGE);
    }
    return { reason: DEADLINE_EXCEEDED_REASON, message: DEADLINE_EXCEEDED_MESSAGE };
  }

  /** Hands the status to the status manager; a static pod without its mirror yet has nowhere to report, so it is held. */
  publish(uid: string, d: DesiredPod, status: PodStatus): void {
    this.observePodStart(uid, status);
    if (d.static && !this.o.podManager.mirrorOf(d.pod)) {
      this.o.podStates.of(uid).statusAwaitingMirror = status;
      return;
    }
    this.o.statusManager.setPodStatus(uid, this.target(uid, d), status);
  }

  /** The static pod's mirror pod was just created: the status held for it goes out now. */
  publishHeld(uid: string, d: DesiredPod): void {
    const held = this.o.podStates.get(uid)?.statusAwaitingMirror;
    if (held) this.o.statusManager.setPodStatus(uid, this.target(uid, d), held);
  }

  /** The API object the status is written to: the pod itself, or a static pod's mirror pod (by its UID once known). */
  private target(uid: string, d: DesiredPod): { namespace: string; name: string; uid?: string } {
    const target = { namespace: d.pod.metadata.namespace ?? 'default', name: d.pod.metadata.name ?? '' };
    if (!d.static) return { ...target, uid };
    const mirrorUid = this.o.podManager.mirrorOf(d.pod)?.metadata.uid;
    return mirrorUid ? { ...target, uid: mirrorUid } : target;
  }

  /** kubelet_pod_start_duration_seconds: first seen → first Running, once per pod (upstream SyncPod). */
  private observePodStart(uid: string, status: PodStatus): void {
    const state = this.o.podStates.of(uid);
    const seen = state.firstSeenAt;
    if (seen === undefined || status.phase !== 'Running') return;
    delete state.firstSeenAt;
    this.o.observePodStart?.((this.o.clock.now() - seen) / 1000);
  }
}
