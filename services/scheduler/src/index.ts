// @kubelab/scheduler: kube-scheduler as a library (startScheduler) plus its
// framework, for tests and for the benchmark.

export { startScheduler, type StartSchedulerOptions, type RunningScheduler } from './server.js';
export { Scheduler, schedulerNameOf, unschedulableCondition, type SchedulerDeps } from './scheduler.js';
export { schedulerFlags } from './options.js';
export { newSchedulerMetrics, type SchedulerMetrics } from './metrics.js';

export { SchedulerCache } from './cache/cache.js';
export { SchedulingQueue, type SchedulingQueueOptions } from './queue/scheduling-queue.js';
export { schedulePod, numFeasibleNodesToFind, selectHost, newAlgorithmState, type ScheduleResult, type ScheduleOutcome, type CycleDetail } from './algorithm/schedule-pod.js';
export { buildDecisionRecord, podTraceId, type DecisionInput } from './decision/record.js';

export { Framework } from './framework/runtime.js';
export { Registry, type PluginFactory } from './framework/registry.js';
export { Names, type PluginName } from './framework/names.js';
export { defaultProfile, DEFAULT_SCHEDULER_NAME, type Profile, type PluginSpec } from './framework/profile.js';
export { Code, Status, newStatus } from './framework/status.js';
export { CycleState } from './framework/cycle-state.js';
export { NodeInfo, newPodInfo, type PodInfo } from './framework/node-info.js';
export { FitError, fitErrorMessage, type Diagnosis } from './framework/fit-error.js';
export type * from './framework/interface.js';
export type { Handle, ClusterActions, SnapshotLister } from './framework/handle.js';
export { newInTreeRegistry } from './plugins/registry.js';
