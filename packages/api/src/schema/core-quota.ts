// The schema of core/v1 ResourceQuota (k8s.io/api/core/v1 types.go).

import { top, type TypeDef } from './definition.js';

export const QUOTA_TYPES: Record<string, TypeDef> = {
  ResourceQuota: {
    group: 'core',
    description: 'A ResourceQuota sets aggregate quota restrictions enforced per namespace.',
    fields: top({
      spec: ['ResourceQuotaSpec', 'The desired quota.'],
      status: ['ResourceQuotaStatus', 'The actual enforced quota and its current usage.'],
    }),
  },
  ResourceQuotaSpec: {
    group: 'core',
    description: 'The desired hard limits of a quota.',
    fields: {
      hard: ['map[string]Quantity', 'The desired hard limit for each named resource.'],
      scopes: ['[]string', 'Filters on the objects tracked: an object must match all of them to be counted.'],
      scopeSelector: ['ScopeSelector', 'Filters on the objects tracked, as scope expressions; must match all of them.'],
    },
  },
  ResourceQuotaStatus: {
    group: 'core',
    description: 'The enforced hard limits and the observed use.',
    fields: {
      hard: ['map[string]Quantity', 'The enforced hard limits for each named resource.'],
      used: ['map[string]Quantity', 'The current observed total usage of the resource in the namespace.'],
    },
  },
  ScopeSelector: {
    group: 'core',
    description: 'Selects the objects a quota tracks by their scope values.',
    fields: { matchExpressions: ['[]ScopedResourceSelectorRequirement', 'Requirements by scope of the resources, ANDed.'] },
  },
  ScopedResourceSelectorRequirement: {
    group: 'core',
    description: 'A scope name, an operator and values.',
    fields: {
      scopeName: ['string', 'The name of the scope the selector applies to.', { required: true }],
      operator: ['string', "The scope's relation to the values: In, NotIn, Exists or DoesNotExist.", { required: true }],
      values: ['[]string', 'The values: non-empty for In and NotIn, empty for Exists and DoesNotExist.'],
    },
  },
};
