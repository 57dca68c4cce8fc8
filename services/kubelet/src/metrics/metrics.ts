// The kubelet's Prometheus metrics with upstream's names, help texts and
// label sets (pkg/kubelet/metrics): running pods/containers as seen by the
// PLEG relist, pod start duration, and the CRI client's runtime operations.

import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Container, PodSandbox } from '../kuberuntime/cri.js';

/** Upstream PodStartDuration buckets (seconds). */
const POD_START_BUCKETS = [0.5, 1, 2, 3, 4, 5, 6, 8, 10, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600];
/** Upstream RuntimeOperationsDuration buckets: ExponentialBuckets(.005, 2.5, 14). */
const RUNTIME_OP_BUCKETS = Array.from({ length: 14 }, (_, i) => 0.005 * 2.5 ** i);

/** kubecontainer.State values, the container_state label of kubelet_running_containers. */
export type ContainerStateLabel = 'created' | 'running' | 'exited' | 'unknown';

const STATE_LABEL: Record<string, ContainerStateLabel> = {
  CONTAINER_CREATED: 'created',
  CONTAINER_RUNNING: 'running',
  CONTAINER_EXITED: 'exited',
  CONTAINER_UNKNOWN: 'unknown',
};

/** Upstream updateRunningPodAndContainerMetrics: ready sandboxes, and containers by state. */
export function countRunning(sandboxes: PodSandbox[], containers: Container[]): { pods: number; containers: Record<ContainerStateLabel, number> } {
  const byState: Record<ContainerStateLabel, number> = { created: 0, running: 0, exited: 0, unknown: 0 };
  for (const c of containers) byState[STATE_LABEL[c.state] ?? 'unknown']++;
  return { pods: sandboxes.filter((s) => s.state === 'SANDBOX_READY').length, containers: byState };
}

export interface KubeletMetrics {
  registry: Registry;
  /** After each relist: kubelet_running_pods and kubelet_running_containers. */
  observeRelist(sandboxes: PodSandbox[], containers: Container[]): void;
  /** A pod first reached Running: seconds since the kubelet first saw it. */
  observePodStart(seconds: number): void;
  /** One CRI call by the kubelet (operation_type as upstream's instrumented service names it). */
  observeRuntimeOperation(operation: string, seconds: number, failed: boolean): void;
}

export function newKubeletMetrics(registry: Registry): KubeletMetrics {
  const registers = [registry];
  const runningPods = new Gauge({ name: 'kubelet_running_pods', help: 'Number of pods that have a running pod sandbox', registers });
  const runningContainers = new Gauge({ name: 'kubelet_running_containers', help: 'Number of containers currently running', labelNames: ['container_state'], registers });
  const podStart = new Histogram({
    name: 'kubelet_pod_start_duration_seconds',
    help: 'Duration in seconds from kubelet seeing a pod for the first time to the pod starting to run',
    buckets: POD_START_BUCKETS,
    registers,
  });
  const ops = new Counter({ name: 'kubelet_runtime_operations_total', help: 'Cumulative number of runtime operations by operation type.', labelNames: ['operation_type'], registers });
  const opsDuration = new Histogram({
    name: 'kubelet_runtime_operations_duration_seconds',
    help: 'Duration in seconds of runtime operations. Broken down by operation type.',
    labelNames: ['operation_type'],
    buckets: RUNTIME_OP_BUCKETS,
    registers,
  });
  const opsErrors = new Counter({
    name: 'kubelet_runtime_operations_errors_total',
    help: 'Cumulative number of runtime operation errors by operation type.',
    labelNames: ['operation_type'],
    registers,
  });
  return {
    registry,
    observeRelist(sandboxes, containers) {
      const n = countRunning(sandboxes, containers);
      runningPods.set(n.pods);
      for (const [state, v] of Object.entries(n.containers)) runningContainers.set({ container_state: state }, v);
    },
    observePodStart: (seconds) => podStart.observe(seconds),
    observeRuntimeOperation(operation, seconds, failed) {
      ops.inc({ operation_type: operation });
      opsDuration.observe({ operation_type: operation }, seconds);
      if (failed) opsErrors.inc({ operation_type: operation });
    },
  };
}
