import { describe, expect, it } from 'vitest';
import { printTable } from './index.js';

const now = new Date('2025-06-01T12:00:00Z');
const created = new Date(now.getTime() - 90_000).toISOString();
const cells = (obj: Record<string, unknown>) => printTable('ResourceQuota', [obj], { now }).rows[0]!.cells;

describe('resource quota rows (kubectl get quota)', () => {
  it('columns as upstream printers.go', () => {
    expect(
      printTable('ResourceQuota', [], { now })
        .columnDefinitions.map((c) => c.name)
        .join(' | '),
    ).toBe('Name | Age | Request | Limit');
  });

  it.each<[string, object | undefined, string, string]>([
    ['not yet counted: empty cells', undefined, '', ''],
    [
      'sorted, limits.* apart, a missing used shown as 0',
      { hard: { 'requests.cpu': '1', pods: '2', 'limits.memory': '1Gi', 'limits.cpu': '2' }, used: { pods: '1', 'requests.cpu': '100m', 'limits.cpu': '500m' } },
      'pods: 1/2, requests.cpu: 100m/1',
      'limits.cpu: 500m/2, limits.memory: 0/1Gi',
    ],
  ])('%s', (_name, status, request, limit) => {
    expect(cells({ kind: 'ResourceQuota', metadata: { name: 'q', creationTimestamp: created }, spec: {}, ...(status ? { status } : {}) })).toEqual(['q', '90s', request, limit]);
  });
});
