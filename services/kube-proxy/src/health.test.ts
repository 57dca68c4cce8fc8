import { describe, expect, it } from 'vitest';
import { goTime, ProxyHealth } from './health.js';

describe('ProxyHealth', () => {
  it('is healthy until a queued change waits longer than the timeout, with upstream JSON', () => {
    let now = Date.parse('2026-01-01T10:00:00.250Z');
    const h = new ProxyHealth(60_000, () => now);
    expect(h.healthz().status).toBe(200);
    h.queued();
    now += 59_000;
    expect(h.healthz().status).toBe(200);
    now += 2000;
    const bad = h.healthz();
    expect(bad.status).toBe(503);
    expect(bad.body).toMatch(/^\{"lastUpdated": "0001-01-01 00:00:00 \+0000 UTC","currentTime": "2026-01-01 10:01:01\.25 \+0000 UTC", "nodeEligible": true\}$/);
    h.updated();
    const ok = h.healthz();
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ lastUpdated: '2026-01-01 10:01:01.25 +0000 UTC', currentTime: expect.any(String), nodeEligible: true });
    expect(Object.keys(JSON.parse(h.livez().body))).toEqual(['lastUpdated', 'currentTime']);
  });

  it("prints times as Go's time.Time.String", () => {
    expect(goTime(Date.parse('2020-03-04T05:06:07Z'))).toBe('2020-03-04 05:06:07 +0000 UTC');
    expect(goTime(Date.now())).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \+0000 UTC m=\+\d+\.\d{9}$/);
  });
});
