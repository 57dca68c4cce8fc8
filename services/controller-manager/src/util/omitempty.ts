// Go's `omitempty`: the apiserver never stores a zero int field so tagged,
// so controllers leave such counts out instead of writing 0 (what
// `kubectl get -o yaml` shows on a real cluster).

/** The given counts without the zero ones. */
export function nonZero<T extends Record<string, number>>(counts: T): Partial<T> {
  const out: Partial<T> = {};
  for (const k of Object.keys(counts) as (keyof T)[]) if (counts[k] !== 0) out[k] = counts[k];
  return out;
}
