// SetDefaults_PriorityClass (pkg/apis/scheduling/v1/defaults.go): classes preempt unless they say Never.
import type { PriorityClass } from './types.js';

export function defaultPriorityClass(pc: PriorityClass): void {
  pc.preemptionPolicy ??= 'PreemptLowerPriority';
}
