// The schema of policy/v1 PodDisruptionBudget (k8s.io/api/policy/v1 types.go); Eviction is in groups.ts.

import { top, type TypeDef } from './definition.js';

export const POLICY_TYPES: Record<string, TypeDef> = {
  PodDisruptionBudget: {
    group: 'policy',
    description: 'A PodDisruptionBudget bounds how many pods of a set may be down at once through voluntary disruptions (evictions).',
    fields: top({
      spec: ['PodDisruptionBudgetSpec', 'The desired behaviour of the budget.'],
      status: ['PodDisruptionBudgetStatus', 'The most recently observed state of the budget, written by the disruption controller.'],
    }),
  },
  PodDisruptionBudgetSpec: {
    group: 'policy',
    description: 'The description of a PodDisruptionBudget.',
    fields: {
      minAvailable: ['IntOrString', 'An eviction is allowed if at least this many selected pods (or this percentage) stay available after it. Exclusive with maxUnavailable.'],
      selector: ['LabelSelector', 'The pods the budget covers; an empty selector selects every pod of the namespace.', { patchStrategy: 'replace' }],
      maxUnavailable: ['IntOrString', 'An eviction is allowed if at most this many selected pods (or this percentage) are unavailable after it. Exclusive with minAvailable.'],
      unhealthyPodEvictionPolicy: ['string', 'When running but not Ready pods may be evicted: IfHealthyBudget (default) or AlwaysAllow.'],
    },
  },
  PodDisruptionBudgetStatus: {
    group: 'policy',
    description: 'The observed state of a PodDisruptionBudget.',
    fields: {
      observedGeneration: ['int64', 'The generation the status was computed for.'],
      disruptedPods: ['map[string]Time', 'Pods whose eviction the API server admitted but the controller has not yet seen deleted, with the time of the eviction.'],
      disruptionsAllowed: ['int32', 'Number of pod disruptions that are currently allowed.', { required: true }],
      currentHealthy: ['int32', 'Current number of healthy pods.', { required: true }],
      desiredHealthy: ['int32', 'Minimum desired number of healthy pods.', { required: true }],
      expectedPods: ['int32', 'Total number of pods counted by this budget.', { required: true }],
      conditions: ['[]Condition', 'The latest observations of the budget: DisruptionAllowed.', { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }],
    },
  },
};
