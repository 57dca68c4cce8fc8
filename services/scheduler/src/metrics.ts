// The scheduler's metrics (pkg/scheduler/metrics), named and labelled as
// upstream so dashboards and queries carry over.

import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export type AttemptResult = 'scheduled' | 'unschedulable' | 'error';

export interface SchedulerMetrics {
  registry: Registry;
  scheduleAttempts: Counter<'result' | 'profile'>;
  attemptDuration: Histogram<'result' | 'profile'>;
  podSchedulingDuration: Histogram<'attempts'>;
  podSchedulingSLIDuration: Histogram<'attempts'>;
  pendingPods: Gauge<'queue'>;
  /** Where scheduler_pending_pods reads its counts when scraped. */
  setPendingSource(fn: () => Record<string, number>): void;
  preemptionAttempts: Counter<string>;
}

function exponentialBuckets(start: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}

export function newSchedulerMetrics(registry: Registry): SchedulerMetrics {
  let pendingSource: (() => Record<string, number>) | undefined;
  return {
    setPendingSource: (fn) => (pendingSource = fn),
    registry,
    scheduleAttempts: new Counter({
      name: 'scheduler_schedule_attempts_total',
      help: "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, while 'error' means an internal scheduler problem.",
      labelNames: ['result', 'profile'],
      registers: [registry],
    }),
    attemptDuration: new Histogram({
      name: 'scheduler_scheduling_attempt_duration_seconds',
      help: 'Scheduling attempt latency in seconds (scheduling algorithm + binding)',
      labelNames: ['result', 'profile'],
      buckets: exponentialBuckets(0.001, 2, 15),
      registers: [registry],
    }),
    podSchedulingDuration: new Histogram({
      name: 'scheduler_pod_scheduling_duration_seconds',
      help: 'E2e latency for a pod being scheduled which may include multiple scheduling attempts.',
      labelNames: ['attempts'],
      buckets: exponentialBuckets(0.01, 2, 20),
      registers: [registry],
    }),
    podSchedulingSLIDuration: new Histogram({
      name: 'scheduler_pod_scheduling_sli_duration_seconds',
      help: 'E2e latency for a pod being scheduled, from the time the pod enters the scheduling queue and might involve multiple scheduling attempts.',
      labelNames: ['attempts'],
      buckets: exponentialBuckets(0.01, 2, 20),
      registers: [registry],
    }),
    pendingPods: new Gauge({
      name: 'scheduler_pending_pods',
      help: "Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods in unschedulablePods that the scheduler attempted to schedule and failed; 'gated' is the number of unschedulable pods that the scheduler never attempted to schedule because they are gated.",
      labelNames: ['queue'],
      registers: [registry],
      collect() {
        if (!pendingSource) return;
        for (const [q, n] of Object.entries(pendingSource())) this.set({ queue: q }, n);
      },
    }),
    preemptionAttempts: new Counter({
      name: 'scheduler_preemption_attempts_total',
      help: 'Total preemption attempts in the cluster till now',
      registers: [registry],
    }),
  };
}
