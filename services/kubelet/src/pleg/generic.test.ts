import { describe, expect, it } from 'vitest';
import { FakeClock } from '@kubelab/client/testing';
import { GenericPLEG, diffSnapshots, relistTiming, type Snapshot } from './generic.js';

const snap = (entries: Record<string, Record<string, 'running' | 'exited' | 'created' | 'unknown'>>): Snapshot =>
  new Map(Object.entries(entries).map(([uid, cs]) => [uid, new Map(Object.entries(cs))]));

describe('PLEG relist diff', () => {
  it.each([
    ['a new running container is ContainerStarted', snap({}), snap({ p1: { c1: 'running' } }), [{ podUid: 'p1', type: 'ContainerStarted', data: 'c1' }]],
    ['running → exited is ContainerDied', snap({ p1: { c1: 'running' } }), snap({ p1: { c1: 'exited' } }), [{ podUid: 'p1', type: 'ContainerDied', data: 'c1' }]],
    ['an exited container that disappears is ContainerRemoved', snap({ p1: { c1: 'exited' } }), snap({}), [{ podUid: 'p1', type: 'ContainerRemoved', data: 'c1' }]],
    [
      'a running container that disappears died and was removed',
      snap({ p1: { c1: 'running' } }),
      snap({ p1: {} }),
      [
        { podUid: 'p1', type: 'ContainerDied', data: 'c1' },
        { podUid: 'p1', type: 'ContainerRemoved', data: 'c1' },
      ],
    ],
    ['created is ContainerChanged', snap({}), snap({ p1: { c1: 'created' } }), [{ podUid: 'p1', type: 'ContainerChanged', data: 'c1' }]],
    ['no change, no event', snap({ p1: { c1: 'running' } }), snap({ p1: { c1: 'running' } }), []],
  ])('%s', (_name, before, after, want) => {
    expect(diffSnapshots(before, after)).toEqual(want);
  });

  it('reports unhealthy with the upstream message once no relist succeeded for 3 minutes', async () => {
    const clock = new FakeClock();
    let fail = false;
    const rt = {
      listPodSandbox: async () => {
        if (fail) throw new Error('connection refused');
        return [];
      },
      listContainers: async () => [],
    } as unknown as ConstructorParameters<typeof GenericPLEG>[0];
    const pleg = new GenericPLEG(rt, clock, () => {});
    await pleg.relist();
    expect(pleg.healthy()).toEqual({ ok: true, message: '' });
    fail = true;
    await clock.advance(180_000);
    await pleg.relist();
    expect(pleg.healthy().ok).toBe(true);
    await clock.advance(1_500);
    await pleg.relist();
    expect(pleg.healthy()).toEqual({ ok: false, message: 'pleg was last seen active 3m1.5s ago; threshold is 3m0s' });
  });
});

describe('the last relist for periodic readers', () => {
  it('hands out the lists of a relist no older than asked, then nothing', async () => {
    const clock = new FakeClock();
    const sandboxes = [{ id: 's1', metadata: { name: 'web', uid: 'p1', namespace: 'default', attempt: 0 }, state: 'SANDBOX_READY', createdAt: 0, labels: {}, annotations: {} }];
    const rt = { listPodSandbox: async () => sandboxes, listContainers: async () => [] } as unknown as ConstructorParameters<typeof GenericPLEG>[0];
    const pleg = new GenericPLEG(rt, clock, () => {});
    expect(pleg.recentLists(2_000)).toBeUndefined();
    await pleg.relist();
    expect(pleg.recentLists(2_000)).toEqual({ at: clock.now(), sandboxes, containers: [] });
    await clock.advance(2_001);
    expect(pleg.recentLists(2_000)).toBeUndefined();
  });
});

describe('relist timing (upstream genericPlegRelistPeriod / eventedPlegRelistPeriod)', () => {
  it.each([
    { evented: false, scale: 1, periodMs: 1000, thresholdMs: 180_000 },
    { evented: false, scale: 10, periodMs: 1000, thresholdMs: 18_000 },
    { evented: true, scale: 1, periodMs: 300_000, thresholdMs: 600_000 },
    { evented: true, scale: 10, periodMs: 300_000, thresholdMs: 60_000 },
  ])('EventedPLEG=$evented at time scale $scale: relist every $periodMs ms, unhealthy after $thresholdMs ms', ({ evented, scale, periodMs, thresholdMs }) => {
    expect(relistTiming(evented, scale)).toEqual({ periodMs, thresholdMs });
  });
});
