import { describe, expect, it } from 'vitest';
import { encodeMasterLease, liveMasterLeases, masterLeaseKey, type StoredLease } from './master-leases.js';

const lease = (ip: string, expiresAtMs: number, rev: number, key = masterLeaseKey(ip)): StoredLease => ({ key, value: encodeMasterLease(ip, expiresAtMs), rev });

describe('liveMasterLeases', () => {
  const now = 1_000_000;
  const cases: { name: string; entries: StoredLease[]; ips: string[]; expired: number[] }[] = [
    { name: 'none stored', entries: [], ips: [], expired: [] },
    { name: 'live leases in key order', entries: [lease('10.0.0.3', now + 1, 1), lease('10.0.0.12', now + 15_000, 2)], ips: ['10.0.0.12', '10.0.0.3'], expired: [] },
    { name: 'one past its expiry', entries: [lease('10.0.0.2', now + 5_000, 1), lease('10.0.0.3', now, 2)], ips: ['10.0.0.2'], expired: [2] },
    { name: 'unreadable', entries: [{ key: masterLeaseKey('10.0.0.4'), value: Buffer.from('{'), rev: 7 }], ips: [], expired: [7] },
    { name: 'an IP under another key', entries: [lease('10.0.0.5', now + 5_000, 3, masterLeaseKey('10.0.0.6'))], ips: [], expired: [3] },
  ];
  for (const c of cases)
    it(c.name, () => {
      const view = liveMasterLeases(c.entries, now);
      expect(view.ips).toEqual(c.ips);
      expect(view.expired.map((e) => e.rev)).toEqual(c.expired);
    });

  it('stores the lease as upstream does: an Endpoints object with the IP', () => {
    expect(JSON.parse(Buffer.from(encodeMasterLease('10.0.0.2', Date.UTC(2026, 0, 1))).toString())).toEqual({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: '10.0.0.2', annotations: { 'kubelab.io/expires': '2026-01-01T00:00:00.000Z' } },
      subsets: [{ addresses: [{ ip: '10.0.0.2' }] }],
    });
  });
});
