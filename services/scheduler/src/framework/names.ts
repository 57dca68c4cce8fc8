// Every in-tree plugin name in one list (upstream plugins/names/names.go).

export const Names = {
  PrioritySort: 'PrioritySort',
  SchedulingGates: 'SchedulingGates',
  NodeUnschedulable: 'NodeUnschedulable',
  NodeName: 'NodeName',
  TaintToleration: 'TaintToleration',
  NodeAffinity: 'NodeAffinity',
  NodePorts: 'NodePorts',
  NodeResourcesFit: 'NodeResourcesFit',
  NodeResourcesBalancedAllocation: 'NodeResourcesBalancedAllocation',
  DefaultPreemption: 'DefaultPreemption',
  DefaultBinder: 'DefaultBinder',
  VolumeBinding: 'VolumeBinding',
} as const;

export type PluginName = (typeof Names)[keyof typeof Names];
