import { describe, expect, it } from 'vitest';
import { MAX_HOLLOW_NODES, hollowNodeIP, hollowNodeZone, interfacePlan, planCapacity, workerCount, workerRange } from './addresses.js';

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

describe('interfacePlan', () => {
  it.each([
    // Docker's default pools: a /16 per network, then /20s.
    ['172.20.0.5/16', '172.20.252.1', '172.20.252.250', '172.20.255.250'],
    ['192.168.16.3/20', '192.168.28.1', '192.168.28.250', '192.168.31.250'],
    ['10.1.2.3/8', '10.255.252.1', '10.255.252.250', '10.255.255.250'],
  ])('%s: the top /22 (first %s, node 250 %s, last %s)', (cidr, first, n250, last) => {
    const plan = interfacePlan(cidr);
    expect(planCapacity(plan)).toBe(1000);
    expect([hollowNodeIP(1, plan), hollowNodeIP(250, plan), hollowNodeIP(1000, plan)]).toEqual([first, n250, last]);
  });

  it.each([
    ['172.20.0.5/23', 'the network of 172.20.0.5/23 is smaller than a /22: no room for hollow node addresses'],
    ['172.20.253.7/16', "172.20.253.7 is in the top /22 of its network, where the hollow nodes' addresses go"],
    ['10.0.0.9/22', '10.0.0.9 is in the top /22 of its network'],
    ['eth0', '"eth0" is not an IPv4 address/prefix'],
    ['300.1.1.1/16', '"300.1.1.1" is not an IPv4 address'],
  ])('refuses %s', (cidr, message) => {
    expect(() => interfacePlan(cidr)).toThrow(message);
  });

  it('numbers nodes only within the plan', () => {
    expect(() => hollowNodeIP(1001, interfacePlan('172.20.0.5/16'))).toThrow('hollow node number must be 1..1000, got 1001');
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
