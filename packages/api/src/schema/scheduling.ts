// The schema of scheduling.k8s.io/v1 PriorityClass (k8s.io/api/scheduling/v1 types.go).

import { top, type TypeDef } from './definition.js';

export const SCHEDULING_TYPES: Record<string, TypeDef> = {
  PriorityClass: {
    group: 'scheduling',
    description: 'A PriorityClass maps a name to the integer priority pods get when they name it in priorityClassName.',
    fields: top({
      value: ['int32', 'The priority pods of this class receive; higher is more important.', { required: true }],
      globalDefault: ['boolean', 'Whether pods without a priorityClassName get this class; only one class may say true.'],
      description: ['string', 'When this class should be used.'],
      preemptionPolicy: ['string', 'PreemptLowerPriority (default) or Never: whether pods of this class may preempt lower-priority pods.'],
    }),
  },
};
