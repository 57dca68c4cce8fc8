import { describe, expect, it } from 'vitest';
import { MAX_HOLLOW_NODES, hollowNodeIP, hollowNodeZone, workerCount, workerRange } from './addresses.js';

describe('hollowNodeIP', () => {
  it.each([
    [1, '127.100.0.1'],
    [250, '127.100.0.250'],
    [251, '127.100.1.1'],
    [1000, '127.100.3.250'],
    [256 * 250, '127.100.255.250'],
    [256 * 250 + 1, '127.101.0.1'],
    [MAX_HOLLOW_NODES, '127.103.255.250'],
  ])('node %i → %s', (i, ip) => {
    expect(hollowNodeIP(i)).toBe(ip);
  });

  it('gives every node of a thousand its own address', () => {
    expect(new Set(Array.from({ length: 1000 }, (_, k) => hollowNodeIP(k + 1))).size).toBe(1000);
  });

  it.each([0, -1, 1.5, MAX_HOLLOW_NODES + 1])('refuses %s', (i) => {
    expect(() => hollowNodeIP(i)).toThrow(`hollow node number must be 1..${MAX_HOLLOW_NODES}, got ${i}`);
  });
});

describe('hollowNodeZone', () => {
  it.each([
    [1, 'zone-a'],
    [2, 'zone-b'],
    [3, 'zone-c'],
    [4, 'zone-a'],
    [1000, 'zone-a'],
  ])('node %i is in %s', (i, zone) => {
    expect(hollowNodeZone(i)).toBe(zone);
  });

  it('takes the zones given', () => {
    expect([1, 2, 3].map((i) => hollowNodeZone(i, ['east', 'west']))).toEqual(['east', 'west', 'east']);
  });
});

describe('workerRange', () => {
  it.each([
    {
      total: 1000,
      workers: 4,
      ranges: [
        [1, 250],
        [251, 250],
        [501, 250],
        [751, 250],
      ],
    },
    {
      total: 10,
      workers: 3,
      ranges: [
        [1, 4],
        [5, 3],
        [8, 3],
      ],
    },
    { total: 50, workers: 1, ranges: [[1, 50]] },
  ])('$total nodes over $workers workers', ({ total, workers, ranges }) => {
    expect(Array.from({ length: workers }, (_, w) => workerRange(total, workers, w)).map((r) => [r.first, r.count])).toEqual(ranges);
    expect(workerCount(total, 250)).toBe(Math.ceil(total / 250));
  });
});
