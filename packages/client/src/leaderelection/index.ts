export { LeaderElector, runLeaderElection, validateLeaderElectionConfig, JITTER_FACTOR, type LeaderElectionConfig, type LeaderCallbacks } from './leaderelection.js';
export { runWhenLeading, type LeadOptions, type Leading, type LeaderElectionOptions } from './lead.js';
export { LeaseLock, leaseSpecToRecord, recordToLeaseSpec, type LeaderElectionRecord, type ResourceLock } from './resourcelock.js';
export { prometheusLeaderElectionMetrics, noopLeaderMetrics, type LeaderMetricsProvider } from './metrics.js';
