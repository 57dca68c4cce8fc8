// The watch cache's progress check (etcd's watch progress notification in
// kubelab's terms): when is the single KV watch stalled?
import { describe, expect, it } from 'vitest';
import { progressCheck } from './watch-cache.js';

describe('progressCheck', () => {
  const cases: { name: string; prev: { rev: number; stalls: number }; rev: number; storeRev: number; want: { rev: number; stalls: number; stalled: boolean } }[] = [
    { name: 'caught up: not stalled', prev: { rev: 10, stalls: 0 }, rev: 10, storeRev: 10, want: { rev: 10, stalls: 0, stalled: false } },
    { name: 'behind but moving (a busy store): not stalled', prev: { rev: 10, stalls: 1 }, rev: 40, storeRev: 90, want: { rev: 40, stalls: 0, stalled: false } },
    { name: 'behind and no event since the last check: one stall', prev: { rev: 10, stalls: 0 }, rev: 10, storeRev: 12, want: { rev: 10, stalls: 1, stalled: false } },
    { name: 'the second check without an event: stalled, counted afresh', prev: { rev: 10, stalls: 1 }, rev: 10, storeRev: 12, want: { rev: 10, stalls: 0, stalled: true } },
    { name: 'the first check ever: nothing to compare with', prev: { rev: -1, stalls: 0 }, rev: 10, storeRev: 12, want: { rev: 10, stalls: 0, stalled: false } },
  ];
  for (const c of cases) it(c.name, () => expect(progressCheck(c.prev, c.rev, c.storeRev)).toEqual(c.want));
});
