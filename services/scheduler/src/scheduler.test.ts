import { describe, expect, it } from 'vitest';
import { nominatedNodeNameChange, truncateMessage, unschedulableCondition } from './scheduler.js';
import { makePod } from './testing/builders.js';

describe('FailedScheduling note length', () => {
  it('keeps messages up to 1024 bytes as they are', () => {
    const m = 'x'.repeat(1024);
    expect(truncateMessage(m)).toBe(m);
  });

  it('cuts longer ones to 1024 bytes ending " ..." as upstream truncateMessage', () => {
    const out = truncateMessage('y'.repeat(2000));
    expect(Buffer.byteLength(out)).toBe(1024);
    expect(out.endsWith('y ...')).toBe(true);
  });

  it('counts bytes, not characters, and never splits a character', () => {
    const out = truncateMessage('é'.repeat(600)); // 1200 bytes
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(1024);
    expect(out).toMatch(/^é+ \.\.\.$/);
  });
});

describe('PodScheduled after a failed attempt', () => {
  it('keeps lastTransitionTime while it stays False, and writes nothing when unchanged', () => {
    const pod = makePod('p');
    const first = unschedulableCondition(pod, 'Unschedulable', 'no nodes available to schedule pods', '2024-01-01T00:00:00Z')!;
    expect(first).toEqual([expect.objectContaining({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', lastTransitionTime: '2024-01-01T00:00:00Z' })]);
    const again = { ...pod, status: { ...pod.status, conditions: first } };
    expect(unschedulableCondition(again, 'Unschedulable', 'no nodes available to schedule pods', '2024-01-01T00:01:00Z')).toBeUndefined();
    const other = unschedulableCondition(again, 'Unschedulable', '0/1 nodes are available: 1 Insufficient cpu.', '2024-01-01T00:01:00Z')!;
    expect(other[0]).toMatchObject({ message: '0/1 nodes are available: 1 Insufficient cpu.', lastTransitionTime: '2024-01-01T00:00:00Z' });
  });
});

describe('status.nominatedNodeName after a failed attempt', () => {
  const nominated = { ...makePod('urgent'), status: { phase: 'Pending' as const, nominatedNodeName: 'node-1' } };
  it.each<[string, ReturnType<typeof makePod>, string | undefined, string | null | undefined]>([
    ['preemption nominates a node', makePod('urgent'), 'node-1', 'node-1'],
    ['the same nomination writes nothing', nominated, 'node-1', undefined],
    ['preemption found no candidates: the nomination is cleared', nominated, '', null],
    ['no preemption result leaves it', nominated, undefined, undefined],
    ['nothing to clear', makePod('urgent'), '', undefined],
  ])('%s', (_n, pod, override, want) => {
    expect(nominatedNodeNameChange(pod, override)).toBe(want);
  });
});
