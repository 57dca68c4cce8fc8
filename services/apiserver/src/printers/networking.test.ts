import { describe, expect, it } from 'vitest';
import { printTable } from './index.js';

const now = new Date('2026-01-01T00:00:00Z');
const np = (name: string, podSelector: object) => ({ kind: 'NetworkPolicy', metadata: { name, creationTimestamp: new Date(now.getTime() - 120_000).toISOString() }, spec: { podSelector } });

describe('NetworkPolicy rows (printNetworkPolicy)', () => {
  it('shows the pod selector, <none> for every pod', () => {
    const t = printTable('NetworkPolicy', [np('default-deny', {}), np('allow-client', { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] })], {
      now,
    });
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Pod-Selector', 'Age']);
    expect(t.rows.map((r) => r.cells)).toEqual([
      ['default-deny', '<none>', '2m'],
      ['allow-client', 'app=web,tier in (a,b)', '2m'],
    ]);
  });
});
