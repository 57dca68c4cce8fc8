// The kubelet's configuration (upstream pkg/kubelet/apis/config
// KubeletConfiguration plus the flags that feed it), and the settings its
// modules derive from it.

import type { Taint } from '@kubelab/api';
import type { EvictionConfig } from './eviction/manager.js';
import { DEFAULT_EVICTION_HARD, parseThresholdConfig, type Threshold } from './eviction/thresholds.js';

export interface KubeletConfig {
  nodeName: string;
  nodeIP: string;
  nodeLabels: Record<string, string>;
  /** --register-with-taints: spec.taints of the Node this kubelet creates. */
  registerWithTaints?: Taint[];
  podManifestPath: string;
  podLogsDir: string;
  rootDir: string;
  kubeletPort: number;
  maxPods: number;
  nodeStatusUpdateFrequencyMs: number;
  nodeStatusReportFrequencyMs: number;
  nodeLeaseDurationSeconds: number;
  fileCheckFrequencyMs: number;
  syncFrequencyMs: number;
  /** Scales the kubelet's own timers (back-offs, runtime-down threshold); 1 = upstream. */
  timeScale: number;
  registerNode: boolean;
  /** `EventedPLEG=true` also streams GetContainerEvents. */
  featureGates: Record<string, boolean>;
  /** The status manager's reconcile period (upstream syncPeriod, 10 s; not a flag upstream either). */
  statusSyncPeriodMs?: number;
  /** --eviction-hard/--eviction-soft thresholds (absent: upstream's default hard thresholds). */
  evictionThresholds?: Threshold[];
  /** --eviction-pressure-transition-period (5 m). */
  evictionPressureTransitionPeriodMs?: number;
  /** --eviction-max-pod-grace-period (0). */
  evictionMaxPodGracePeriodSeconds?: number;
  /** How often the eviction manager looks (upstream evictionMonitoringPeriod, 10 s). */
  evictionMonitoringPeriodMs?: number;
  /** kubelab: the node's simulated memory capacity (absent: the host's memory). */
  memoryCapacityBytes?: number;
}

/** The eviction manager's settings: kubelet time runs timeScale times faster, so do grace and transition periods. */
export function evictionConfig(c: KubeletConfig): EvictionConfig {
  return {
    thresholds: (c.evictionThresholds ?? parseThresholdConfig({ hard: DEFAULT_EVICTION_HARD })).map((t) => ({ ...t, gracePeriodMs: t.gracePeriodMs / c.timeScale })),
    pressureTransitionPeriodMs: (c.evictionPressureTransitionPeriodMs ?? 300_000) / c.timeScale,
    maxPodGracePeriodSeconds: c.evictionMaxPodGracePeriodSeconds ?? 0,
  };
}
