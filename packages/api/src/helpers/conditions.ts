// The lookup GetPodCondition and GetNodeCondition share (not exported from the package).

/** The condition of a type and its index (-1 when absent). */
export function conditionOfType<C extends { type: string }>(conditions: readonly C[] | undefined, type: C['type']): { index: number; condition?: C } {
  const conds = conditions ?? [];
  const index = conds.findIndex((c) => c.type === type);
  return index < 0 ? { index } : { index, condition: conds[index] as C };
}
