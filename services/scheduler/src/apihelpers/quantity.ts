// Quantity → the integers the scheduler adds and compares (upstream reads
// Quantity.MilliValue() for cpu and Value() for everything else, both
// rounding up), over @kubelab/api's parseQuantity.

import { parseQuantity } from '@kubelab/api';

/** Quantity.MilliValue(): "100m" → 100, "1" → 1000, "0.5" → 500. */
export function milliValue(q: string | number): number {
  return parseQuantity(String(q)).milliValue();
}

/** Quantity.Value(): "128Mi" → 134217728, "1k" → 1000, "100m" → 1 (rounds up). */
export function quantityValue(q: string | number): number {
  return parseQuantity(String(q)).value();
}
