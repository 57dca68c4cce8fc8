// For tests of API Priority and Fairness: a configuration whose seats are exactly the nominal ones.
import type { PriorityLevelConfiguration } from '@kubelab/api';
import { BOOTSTRAP_PRIORITY_LEVELS } from './bootstrap.js';

/** The bootstrap levels lending nothing: each level has exactly its nominal seats. */
export const NO_LENDING: PriorityLevelConfiguration[] = BOOTSTRAP_PRIORITY_LEVELS.map((l) =>
  l.spec?.type === 'Limited' ? { ...l, spec: { ...l.spec, limited: { ...l.spec.limited, lendablePercent: 0 } } } : l,
);
