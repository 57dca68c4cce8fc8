// The kubelet's configuration (upstream pkg/kubelet/apis/config
// KubeletConfiguration plus the flags that feed it), and the settings its
// modules derive from it.

import { parseQuantity, type Taint } from '@kubelab/api';
import type { LogRotatePolicy } from './logs/container-log-manager.js';
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
  /**
   * configMapAndSecretChangeDetectionStrategy: Watch (upstream's default) follows each referenced
   * ConfigMap and Secret with its own watch and reads from that cache; Get reads them from the apiserver on every use.
   */
  configMapAndSecretChangeDetectionStrategy?: 'Get' | 'Watch';
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
  /** containerLogMaxSize: a container's log is rotated once it is larger (default 10Mi). */
  containerLogMaxSize?: string;
  /** containerLogMaxFiles: log files kept per container, the live one included (default 5). */
  containerLogMaxFiles?: number;
  /** clusterDNS (--cluster-dns): the cluster DNS server addresses ClusterFirst pods get (kubeadm: the kube-dns ClusterIP). */
  clusterDNS?: string[];
  /** clusterDomain (--cluster-domain): the cluster's DNS domain (kubeadm: cluster.local). */
  clusterDomain?: string;
  /** resolvConf (--resolv-conf): the node's resolver configuration for Default pods ('' = none). */
  resolvConf?: string;
  /**
   * kubelab: the node's `/` whose fault state the kubelet follows (injected usage, a cut-off control plane);
   * absent: KUBELAB_NODE_ROOT, else `/`. Several kubelets of one process (hollow nodes) each have their own.
   */
  nodeRoot?: string;
}

/** The node root of a kubelet: its config's, else the process's KUBELAB_NODE_ROOT (set by the node's unit), else `/`. */
export function nodeRootOf(c: Pick<KubeletConfig, 'nodeRoot'>): string {
  return c.nodeRoot || process.env.KUBELAB_NODE_ROOT || '/';
}

export const DEFAULT_CONTAINER_LOG_MAX_SIZE = '10Mi';
export const DEFAULT_CONTAINER_LOG_MAX_FILES = 5;

/** The container log manager's policy; bad values get upstream's validation errors. */
export function logRotatePolicy(c: Pick<KubeletConfig, 'containerLogMaxSize' | 'containerLogMaxFiles'>): LogRotatePolicy {
  const files = c.containerLogMaxFiles ?? DEFAULT_CONTAINER_LOG_MAX_FILES;
  if (!Number.isInteger(files) || files <= 1) throw new Error(`invalid configuration: containerLogMaxFiles (--container-log-max-files) ${files} must be greater than 1`);
  const raw = c.containerLogMaxSize ?? DEFAULT_CONTAINER_LOG_MAX_SIZE;
  let size: number;
  try {
    size = parseQuantity(raw).value();
  } catch {
    throw new Error(`invalid configuration: containerLogMaxSize (--container-log-max-size) ${raw} must be a valid resource quantity`);
  }
  if (size < 0) throw new Error(`invalid configuration: containerLogMaxSize (--container-log-max-size) ${raw} must be a positive resource quantity`);
  return { maxSizeBytes: size, maxFiles: files };
}

/** The eviction manager's settings: kubelet time runs timeScale times faster, so do grace and transition periods. */
export function evictionConfig(c: KubeletConfig): EvictionConfig {
  return {
    thresholds: (c.evictionThresholds ?? parseThresholdConfig({ hard: DEFAULT_EVICTION_HARD })).map((t) => ({ ...t, gracePeriodMs: t.gracePeriodMs / c.timeScale })),
    pressureTransitionPeriodMs: (c.evictionPressureTransitionPeriodMs ?? 300_000) / c.timeScale,
    maxPodGracePeriodSeconds: c.evictionMaxPodGracePeriodSeconds ?? 0,
  };
}
