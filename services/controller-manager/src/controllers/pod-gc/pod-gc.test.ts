import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { missingNodes, terminatedToDelete, unscheduledTerminating } from './decisions.js';

const pod = (name: string, phase: string, created: string, node?: string, deleting = false): Pod => ({
  metadata: { name, creationTimestamp: created, ...(deleting ? { deletionTimestamp: created } : {}) },
  spec: { containers: [], ...(node ? { nodeName: node } : {}) },
  status: { phase: phase as 'Running' },
});

describe('pod GC', () => {
  it('deletes the oldest terminated pods over the threshold', () => {
    const pods = [
      pod('a', 'Succeeded', '2026-01-01T00:00:03Z'),
      pod('b', 'Failed', '2026-01-01T00:00:01Z'),
      pod('c', 'Running', '2026-01-01T00:00:00Z'),
      pod('d', 'Succeeded', '2026-01-01T00:00:02Z'),
    ];
    expect(terminatedToDelete(pods, 1).map((p) => p.metadata.name)).toEqual(['b', 'd']);
    expect(terminatedToDelete(pods, 0)).toEqual([]);
  });
  it('finds pods on unknown nodes and unscheduled terminating pods', () => {
    const pods = [pod('a', 'Running', '', 'n1'), pod('b', 'Running', '', 'gone'), pod('c', 'Pending', '2026-01-01T00:00:00Z', undefined, true)];
    expect([...missingNodes(pods, new Set(['n1']))]).toEqual(['gone']);
    expect(unscheduledTerminating(pods).map((p) => p.metadata.name)).toEqual(['c']);
  });
});
