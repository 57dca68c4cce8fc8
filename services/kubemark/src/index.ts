// @kubelab/kubemark: hollow nodes, many real kubelets with their simulated runtimes in one process.
export { DEFAULT_ZONES, MAX_HOLLOW_NODES, ZONE_LABEL, hollowNodeIP, hollowNodeZone, workerCount, workerRange } from './addresses.js';
export { startHollowNode, type HollowNode, type HollowNodeOptions } from './hollow-node.js';
export { startHollowWorker, type HollowWorker, type HollowWorkerOptions } from './worker.js';
