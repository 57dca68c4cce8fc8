// Scheduler profiles (config.KubeSchedulerProfile): a schedulerName and the
// plugins it runs. The default mirrors upstream's v1 default MultiPoint list
// (the plugins kubelab implements), with upstream's score weights.

import { Names } from './names.js';

export interface PluginSpec {
  name: string;
  /** Score weight (upstream default 1 when unset). */
  weight?: number;
  args?: unknown;
}

export interface Profile {
  schedulerName: string;
  /** Enabled at every extension point each plugin implements, in this order. */
  plugins: PluginSpec[];
  /** 0 = adaptive (upstream default); otherwise 1..100. */
  percentageOfNodesToScore?: number;
}

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

export function defaultProfile(schedulerName = DEFAULT_SCHEDULER_NAME): Profile {
  return {
    schedulerName,
    plugins: [
      { name: Names.SchedulingGates },
      { name: Names.PrioritySort },
      { name: Names.NodeUnschedulable },
      { name: Names.NodeName },
      { name: Names.TaintToleration, weight: 3 },
      { name: Names.NodeAffinity, weight: 2 },
      { name: Names.NodePorts },
      { name: Names.NodeResourcesFit, weight: 1 },
      { name: Names.VolumeBinding },
      { name: Names.DefaultPreemption },
      { name: Names.NodeResourcesBalancedAllocation, weight: 1 },
      { name: Names.DefaultBinder },
    ],
  };
}
