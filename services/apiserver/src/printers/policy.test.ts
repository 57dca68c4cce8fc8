import { describe, expect, it } from 'vitest';
import { printTable } from './index.js';

const now = new Date('2025-06-01T12:00:00Z');
const pdb = (spec: Record<string, unknown>, status?: Record<string, unknown>) => ({
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default', creationTimestamp: new Date(now.getTime() - 90_000).toISOString() },
  spec,
  ...(status ? { status } : {}),
});

describe('poddisruptionbudget rows (kubectl get pdb)', () => {
  it.each<[string, Record<string, unknown>, unknown[]]>([
    ['minAvailable, two allowed', pdb({ minAvailable: 1 }, { disruptionsAllowed: 2 }), ['web', '1', 'N/A', 2, '90s']],
    ['maxUnavailable as a percentage', pdb({ maxUnavailable: '50%' }, { disruptionsAllowed: 0 }), ['web', 'N/A', '50%', 0, '90s']],
    ['no status yet', pdb({ minAvailable: 0 }), ['web', '0', 'N/A', 0, '90s']],
  ])('%s', (_n, obj, want) => {
    expect(printTable('PodDisruptionBudget', [obj], { now }).rows[0]!.cells).toEqual(want);
  });
  it('columns', () => {
    expect(printTable('PodDisruptionBudget', [], { now }).columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age']);
  });
});

describe('priorityclass rows (kubectl get pc)', () => {
  it('shows value, global default and preemption policy', () => {
    const pc = {
      kind: 'PriorityClass',
      metadata: { name: 'system-node-critical', creationTimestamp: new Date(now.getTime() - 90_000).toISOString() },
      value: 2000001000,
      preemptionPolicy: 'PreemptLowerPriority',
    };
    const t = printTable('PriorityClass', [pc], { now });
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Value', 'Global-Default', 'Age', 'PreemptionPolicy']);
    expect(t.rows[0]!.cells).toEqual(['system-node-critical', 2000001000, false, '90s', 'PreemptLowerPriority']);
  });
});
