// The schema of core/v1 LimitRange (k8s.io/api/core/v1 types.go).

import { top, type TypeDef } from './definition.js';

export const LIMIT_TYPES: Record<string, TypeDef> = {
  LimitRange: {
    group: 'core',
    description: 'A LimitRange sets per-namespace bounds and defaults for the resources of containers, pods and claims.',
    fields: top({ spec: ['LimitRangeSpec', 'The limits enforced.'] }),
  },
  LimitRangeSpec: {
    group: 'core',
    description: 'The limits of a LimitRange.',
    fields: { limits: ['[]LimitRangeItem', 'The limits, one per kind of object bounded.', { required: true }] },
  },
  LimitRangeItem: {
    group: 'core',
    description: 'The bounds for one kind of object.',
    fields: {
      type: ['string', 'What is bounded: Container, Pod or PersistentVolumeClaim.', { required: true }],
      max: ['map[string]Quantity', 'The most of each resource allowed.'],
      min: ['map[string]Quantity', 'The least of each resource allowed.'],
      default: ['map[string]Quantity', 'The limits a container gets when it sets none.'],
      defaultRequest: ['map[string]Quantity', 'The requests a container gets when it sets none.'],
      maxLimitRequestRatio: ['map[string]Quantity', 'The most a limit may exceed its request, as a ratio.'],
    },
  },
};
