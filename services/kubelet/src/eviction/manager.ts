// The eviction manager (upstream pkg/kubelet/eviction/eviction_manager.go):
// every monitoring interval it observes the node's signals, keeps the
// pressure conditions (held for --eviction-pressure-transition-period) and,
// when a threshold is met past its grace period, evicts at most one pod —
// the first in the resource's ranking — with reason Evicted. The decisions
// are helpers.ts; this holds the state between rounds and does the I/O.

import type { ObjectReference, Pod, PodCondition } from '@kubelab/api';
import type { Logger } from '@kubelab/component-base';
import type { Clock } from '@kubelab/client';
import { podRef, type Recorder } from '../events.js';
import {
  EVICTED_REASON,
  evictionMessage,
  isCriticalPod,
  makeSignalObservations,
  mergeThresholds,
  nodeConditions,
  nodeConditionsLastObservedAt,
  nodeConditionsObservedSince,
  rankFor,
  thresholdsFirstObservedAt,
  thresholdsMet,
  thresholdsMetGracePeriod,
  thresholdToReclaim,
  type NodeConditionType,
  type ObservedAt,
  type PodStats,
  type Summary,
} from './helpers.js';
import { isHard, type Threshold } from './thresholds.js';

export interface EvictionConfig {
  thresholds: Threshold[];
  pressureTransitionPeriodMs: number;
  /** Grace period for soft evictions (--eviction-max-pod-grace-period). */
  maxPodGracePeriodSeconds: number;
}

/** How the kubelet fails and kills a pod: status Failed with reason/message/condition, containers stopped. */
export type KillPodFunc = (pod: Pod, gracePeriodSeconds: number, status: { reason: string; message: string; condition: Pick<PodCondition, 'type' | 'status' | 'reason' | 'message'> }) => void;

export interface EvictionDeps {
  config: EvictionConfig;
  summary: () => Promise<Summary>;
  /** Pods with anything running that are not terminal (upstream activePodsFunc). */
  activePods: () => Pod[];
  killPod: KillPodFunc;
  recorder: Recorder;
  nodeRef: () => ObjectReference;
  clock: Clock;
  log: Logger;
}

export class EvictionManager {
  private conditions: NodeConditionType[] = [];
  private firstObservedAt: ObservedAt = new Map();
  private conditionsLastObservedAt = new Map<NodeConditionType, number>();
  private lastMet: Threshold[] = [];

  constructor(private readonly d: EvictionDeps) {}

  /** Pressure conditions to report on the node. */
  /** The pressure conditions observed now, in upstream's order (for the admission message). */
  pressureConditions(): readonly string[] {
    return this.conditions;
  }

  pressure(): { memory: boolean; disk: boolean; pid: boolean } {
    return { memory: this.conditions.includes('MemoryPressure'), disk: this.conditions.includes('DiskPressure'), pid: this.conditions.includes('PIDPressure') };
  }

  /** One monitoring round (upstream synchronize); returns the pods evicted (at most one). */
  async synchronize(): Promise<Pod[]> {
    const { config } = this.d;
    if (!config.thresholds.length) return [];
    const summary = await this.d.summary();
    const obs = makeSignalObservations(summary);
    let met = thresholdsMet(config.thresholds, obs, false);
    // Thresholds met last time stay until their minimum reclaim is satisfied too.
    if (this.lastMet.length) met = mergeThresholds(met, thresholdsMet(this.lastMet, obs, true));
    const now = this.d.clock.now();
    const firstObservedAt = thresholdsFirstObservedAt(met, this.firstObservedAt, now);
    const lastObservedAt = nodeConditionsLastObservedAt(nodeConditions(met), this.conditionsLastObservedAt, now);
    this.conditions = nodeConditionsObservedSince(lastObservedAt, config.pressureTransitionPeriodMs, now);
    const active = thresholdsMetGracePeriod(firstObservedAt, now);
    this.firstObservedAt = firstObservedAt;
    this.conditionsLastObservedAt = lastObservedAt;
    this.lastMet = active;
    if (!active.length) return [];

    const reclaim = thresholdToReclaim(active);
    if (!reclaim) return [];
    this.d.log.info('Eviction manager: attempting to reclaim', { resourceName: reclaim.resource });
    this.d.recorder.event(this.d.nodeRef(), 'Warning', 'EvictionThresholdMet', `Attempting to reclaim ${reclaim.resource}`);
    const pods = this.d.activePods();
    if (!pods.length) {
      this.d.log.warn('Eviction manager: eviction thresholds have been met, but no pods are active to evict');
      return [];
    }
    const byUid = new Map<string, PodStats>(summary.pods.map((p) => [p.uid, p]));
    const stats = (p: Pod) => byUid.get(p.metadata.uid ?? '');
    const ranked = rankFor(reclaim.threshold.signal, pods, stats);
    this.d.log.info('Eviction manager: pods ranked for eviction', { pods: ranked.map((p) => `${p.metadata.namespace}/${p.metadata.name}`) });
    for (const pod of ranked) {
      if (isCriticalPod(pod)) {
        this.d.log.warn('Eviction manager: cannot evict a critical pod', { pod: `${pod.metadata.namespace}/${pod.metadata.name}` });
        continue;
      }
      const grace = isHard(reclaim.threshold) ? 0 : config.maxPodGracePeriodSeconds;
      const message = evictionMessage(reclaim.resource, pod, stats, active, obs);
      this.d.recorder.event(podRef(pod), 'Warning', EVICTED_REASON, message);
      this.d.killPod(pod, grace, {
        reason: EVICTED_REASON,
        message,
        condition: { type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', message },
      });
      this.d.log.info('Eviction manager: pod is evicted successfully', { pod: `${pod.metadata.namespace}/${pod.metadata.name}` });
      return [pod];
    }
    this.d.log.info('Eviction manager: unable to evict any pods from the node');
    return [];
  }
}
