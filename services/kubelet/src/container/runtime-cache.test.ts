import { describe, expect, it } from 'vitest';
import { emptyPodStatus, type RuntimePodStatus } from '../kuberuntime/podstatus.js';
import type { PodLifecycleEvent } from '../pleg/generic.js';
import { RuntimeCache, podsMadeStale } from './runtime-cache.js';

const running: RuntimePodStatus = {
  ...emptyPodStatus('u1', 'web', 'default'),
  sandboxes: [{ id: 'sb1', ready: true, ip: '10.244.0.2', additionalIps: [], createdAt: 1, attempt: 0 }],
  containers: [
    {
      id: 'c1',
      name: 'app',
      state: 'running',
      createdAt: 2,
      startedAt: 3,
      finishedAt: 0,
      exitCode: 0,
      reason: '',
      message: '',
      image: 'busybox',
      imageRef: 'sha256:b',
      restartCount: 0,
      hash: 'h',
      logPath: '',
    },
  ],
};

describe('podsMadeStale', () => {
  it.each<{ name: string; events: PodLifecycleEvent[]; cached?: RuntimePodStatus; stale: string[] }>([
    { name: 'a start the cache already shows (the kubelet read back its own start) needs no sync', events: [{ podUid: 'u1', type: 'ContainerStarted', data: 'c1' }], cached: running, stale: [] },
    { name: 'a sandbox start the cache already shows needs no sync', events: [{ podUid: 'u1', type: 'ContainerStarted', data: 'sb1' }], cached: running, stale: [] },
    { name: 'a start the cache does not show makes the pod stale', events: [{ podUid: 'u1', type: 'ContainerStarted', data: 'c2' }], cached: running, stale: ['u1'] },
    { name: 'a death always makes the pod stale', events: [{ podUid: 'u1', type: 'ContainerDied', data: 'c1' }], cached: running, stale: ['u1'] },
    { name: 'any event of a pod without a cached status makes it stale', events: [{ podUid: 'u2', type: 'ContainerStarted', data: 'c9' }], stale: ['u2'] },
    {
      name: 'several events of one pod make it stale once',
      events: [
        { podUid: 'u1', type: 'ContainerDied', data: 'c1' },
        { podUid: 'u1', type: 'ContainerRemoved', data: 'c1' },
      ],
      cached: running,
      stale: ['u1'],
    },
  ])('$name', ({ events, cached, stale }) => {
    expect([...podsMadeStale(events, (uid) => (uid === 'u1' ? cached : undefined))]).toEqual(stale);
  });
});

describe('RuntimeCache.status', () => {
  it.each<{ name: string; relists: number; plegHasPod: boolean; cached: boolean; asked: boolean; fresh: boolean; reads: number; result: 'empty' | 'runtime' | 'cached' }>([
    { name: 'a cached status is returned without a runtime read', relists: 1, plegHasPod: true, cached: true, asked: true, fresh: false, reads: 0, result: 'cached' },
    { name: 'a fresh read goes to the runtime even with a cached status', relists: 1, plegHasPod: true, cached: true, asked: true, fresh: true, reads: 1, result: 'runtime' },
    {
      name: 'a pod new to the kubelet that the relist did not see has nothing in the runtime: no read',
      relists: 1,
      plegHasPod: false,
      cached: false,
      asked: false,
      fresh: false,
      reads: 0,
      result: 'empty',
    },
    { name: 'a pod the relist saw (adopted after a restart) is read from the runtime', relists: 1, plegHasPod: true, cached: false, asked: false, fresh: false, reads: 1, result: 'runtime' },
    { name: 'before the first relist the runtime is asked', relists: 0, plegHasPod: false, cached: false, asked: false, fresh: false, reads: 1, result: 'runtime' },
    { name: 'a pod asked about before (its cache invalidated) is read again', relists: 1, plegHasPod: false, cached: false, asked: true, fresh: false, reads: 1, result: 'runtime' },
  ])('$name', async (c) => {
    const fromRuntime = { ...running, name: 'from-runtime' };
    let reads = 0;
    const reader = { getPodStatus: async () => (reads++, fromRuntime) };
    const cache = new RuntimeCache({ relists: c.relists, hasPod: () => c.plegHasPod });
    if (c.asked) {
      await cache.status('u1', 'web', 'default', { getPodStatus: async () => running }, true);
      if (!c.cached) cache.invalidate('u1');
    } else if (c.cached) cache.set('u1', running);
    const got = await cache.status('u1', 'web', 'default', reader, c.fresh);
    expect(reads).toBe(c.reads);
    expect(got).toEqual(c.result === 'empty' ? emptyPodStatus('u1', 'web', 'default') : c.result === 'runtime' ? fromRuntime : running);
    if (c.result === 'runtime') expect(cache.get('u1')).toBe(fromRuntime);
  });

  it('forget drops the status and the pod counts as new again', async () => {
    const cache = new RuntimeCache({ relists: 1, hasPod: () => false });
    await cache.status('u1', 'web', 'default', { getPodStatus: async () => running }, true);
    cache.forget('u1');
    expect(cache.get('u1')).toBeUndefined();
    expect(await cache.status('u1', 'web', 'default', { getPodStatus: async () => running })).toEqual(emptyPodStatus('u1', 'web', 'default'));
  });
});
