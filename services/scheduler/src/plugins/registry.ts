// The in-tree registry (plugins/registry.go NewInTreeRegistry): every plugin
// kubelab implements, by its name from framework/names.ts.

import { Names } from '../framework/names.js';
import { Registry } from '../framework/registry.js';
import { newDefaultBinder } from './default-binder/default-binder.js';
import { newDefaultPreemption } from './default-preemption/default-preemption.js';
import { newNodeAffinity } from './node-affinity/node-affinity.js';
import { newNodeName } from './node-name/node-name.js';
import { newNodePorts } from './node-ports/node-ports.js';
import { newBalancedAllocation } from './node-resources-balanced-allocation/balanced-allocation.js';
import { newNodeResourcesFit } from './node-resources-fit/node-resources-fit.js';
import { newNodeUnschedulable } from './node-unschedulable/node-unschedulable.js';
import { newPrioritySort } from './queue-sort/priority-sort.js';
import { newSchedulingGates } from './scheduling-gates/scheduling-gates.js';
import { newTaintToleration } from './taint-toleration/taint-toleration.js';
import { newVolumeBinding } from './volume-binding/volume-binding.js';

export function newInTreeRegistry(): Registry {
  return new Registry({
    [Names.PrioritySort]: newPrioritySort,
    [Names.SchedulingGates]: newSchedulingGates,
    [Names.NodeUnschedulable]: newNodeUnschedulable,
    [Names.NodeName]: newNodeName,
    [Names.TaintToleration]: newTaintToleration,
    [Names.NodeAffinity]: newNodeAffinity,
    [Names.NodePorts]: newNodePorts,
    [Names.NodeResourcesFit]: newNodeResourcesFit,
    [Names.NodeResourcesBalancedAllocation]: newBalancedAllocation,
    [Names.DefaultPreemption]: newDefaultPreemption,
    [Names.DefaultBinder]: newDefaultBinder,
    [Names.VolumeBinding]: newVolumeBinding,
  });
}
