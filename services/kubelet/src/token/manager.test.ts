import type { TokenRequest } from '@kubelab/api';
import { FakeClock } from '@kubelab/client/testing';
import { describe, expect, it } from 'vitest';
import { requiresRefresh, TokenManager } from './manager.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const issued = (seconds: number, at = T0): TokenRequest => ({
  metadata: {},
  spec: { audiences: [], expirationSeconds: seconds },
  status: { token: `t@${at}`, expirationTimestamp: new Date(at + seconds * 1000).toISOString() },
});

describe('requiresRefresh (upstream token manager)', () => {
  it.each<[string, number, number, boolean]>([
    ['fresh', 3600, 0, false],
    ['just before 80 % of an hour', 3600, 2879, false],
    ['past 80 % of an hour', 3600, 2881, true],
    ['a 48 h token before 80 % but over 24 h old', 48 * 3600, 24 * 3600 + 1, true],
  ])('%s', (_name, seconds, elapsedS, want) => {
    expect(requiresRefresh(issued(seconds), T0 + elapsedS * 1000, 0)).toBe(want);
  });
  it('jitter brings the refresh forward by up to 10 s', () => {
    expect(requiresRefresh(issued(3600), T0 + 2875_000, 6_000)).toBe(true);
  });
});

describe('TokenManager', () => {
  const request = (uid: string): TokenRequest => ({ metadata: {}, spec: { audiences: [], expirationSeconds: 3607, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid } } });

  it('serves the cached token until 80 % of its lifetime, then asks again', async () => {
    const clock = new FakeClock(T0);
    const calls: string[] = [];
    const m = new TokenManager(
      async (ns, name, r) => {
        calls.push(`${ns}/${name} ${r.spec.boundObjectRef?.uid}`);
        return issued(r.spec.expirationSeconds!, clock.now());
      },
      clock,
      () => 0,
    );
    const first = await m.getServiceAccountToken('default', 'default', request('p1'));
    await clock.advance(2800_000);
    expect(await m.getServiceAccountToken('default', 'default', request('p1'))).toBe(first);
    await clock.advance(100_000);
    const second = await m.getServiceAccountToken('default', 'default', request('p1'));
    expect(second.status?.token).not.toBe(first.status?.token);
    expect(calls).toEqual(['default/default p1', 'default/default p1']);
  });

  it('keeps a still-valid token when a refresh fails, and names the failure once it has none', async () => {
    const clock = new FakeClock(T0);
    let fail = false;
    const m = new TokenManager(
      async () => {
        if (fail) throw new Error('serviceaccounts "default" not found');
        return issued(3607, clock.now());
      },
      clock,
      () => 0,
    );
    const t = await m.getServiceAccountToken('default', 'default', request('p1'));
    fail = true;
    await clock.advance(3000_000);
    expect(await m.getServiceAccountToken('default', 'default', request('p1'))).toBe(t);
    await expect(m.getServiceAccountToken('default', 'default', request('p2'))).rejects.toThrow('failed to fetch token: serviceaccounts "default" not found');
  });

  it('forgets the tokens of a deleted pod and expired ones', async () => {
    const clock = new FakeClock(T0);
    const m = new TokenManager(
      async (_ns, _n, r) => issued(r.spec.expirationSeconds!, clock.now()),
      clock,
      () => 0,
    );
    await m.getServiceAccountToken('default', 'default', request('p1'));
    await m.getServiceAccountToken('default', 'default', request('p2'));
    m.deleteServiceAccountToken('p1');
    expect(m.size).toBe(1);
    await clock.advance(3608_000);
    m.cleanup();
    expect(m.size).toBe(0);
  });
});
