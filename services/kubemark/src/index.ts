// @kubelab/kubemark: hollow nodes, many real kubelets with their simulated runtimes in one process.
export { DEFAULT_ZONES, LOOPBACK_PLAN, MAX_HOLLOW_NODES, ZONE_LABEL, hollowNodeIP, hollowNodeZone, interfacePlan, planCapacity, workerCount, workerRange, type AddressPlan } from './addresses.js';
export { startHollowNode, type HollowNode, type HollowNodeOptions } from './hollow-node.js';
export { startHollowWorker, type HollowWorker, type HollowWorkerOptions } from './worker.js';
