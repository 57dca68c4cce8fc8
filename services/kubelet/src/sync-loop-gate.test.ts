import { describe, expect, it } from 'vitest';
import { SyncLoopGate, syncBlockingErrors } from './sync-loop-gate.js';

describe('SyncLoopGate (upstream syncLoop: "Skipping pod synchronization")', () => {
  it('lets syncs through while the runtime is healthy', () => {
    expect(new SyncLoopGate().check([], 1_000)).toBeUndefined();
  });

  it('holds every sync while the runtime has errors, logging once per wait of 100 ms doubling to 5 s, and starts over once healthy', () => {
    const g = new SyncLoopGate();
    const down = ['container runtime is down'];
    const seen: Array<[number, ReturnType<SyncLoopGate['check']>]> = [];
    for (const t of [0, 50, 100, 250, 300, 700, 1_500, 3_100, 6_300, 11_300, 16_300]) seen.push([t, g.check(down, t)]);
    expect(seen).toEqual([
      [0, { retryAt: 100, log: 'container runtime is down' }],
      [50, { retryAt: 100 }],
      [100, { retryAt: 300, log: 'container runtime is down' }],
      [250, { retryAt: 300 }],
      [300, { retryAt: 700, log: 'container runtime is down' }],
      [700, { retryAt: 1_500, log: 'container runtime is down' }],
      [1_500, { retryAt: 3_100, log: 'container runtime is down' }],
      [3_100, { retryAt: 6_300, log: 'container runtime is down' }],
      [6_300, { retryAt: 11_300, log: 'container runtime is down' }],
      [11_300, { retryAt: 16_300, log: 'container runtime is down' }],
      [16_300, { retryAt: 21_300, log: 'container runtime is down' }],
    ]);
    expect(g.check([], 17_000)).toBeUndefined();
    expect(g.check(['container runtime is down', 'PLEG is not healthy: pleg was last seen active 3m0s ago; threshold is 3m0s'], 17_100)).toEqual({
      retryAt: 17_200,
      log: '[container runtime is down, PLEG is not healthy: pleg was last seen active 3m0s ago; threshold is 3m0s]',
    });
  });
});

describe('syncBlockingErrors (upstream runtimeState.runtimeErrors)', () => {
  const base = { lastBaseRuntimeSync: 1_000, baseRuntimeSyncThresholdMs: 30_000, now: 2_000 };
  it.each([
    ['healthy', base, []],
    ['a network that is not ready does not stop syncs (host-network pods start)', { ...base, networkNotReady: { reason: 'NetworkPluginNotReady', message: 'cni config uninitialized' } }, []],
    ['no status check yet', { ...base, lastBaseRuntimeSync: 0 }, ['container runtime status check may not have completed yet']],
    [
      'the runtime down, the PLEG unhealthy',
      { ...base, now: 40_000, plegError: 'pleg was last seen active 3m0s ago; threshold is 3m0s' },
      ['container runtime is down', 'PLEG is not healthy: pleg was last seen active 3m0s ago; threshold is 3m0s'],
    ],
    ['the runtime not ready', { ...base, runtimeNotReady: { reason: 'Broken', message: 'disk gone' } }, ['container runtime not ready: RuntimeReady=false reason:Broken message:disk gone']],
  ])('%s', (_name, h, want) => {
    expect(syncBlockingErrors(h)).toEqual(want);
  });
});
