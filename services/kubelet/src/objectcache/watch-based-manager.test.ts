import { describe, expect, it } from 'vitest';
import { podConfigMapNames, type ConfigMap, type Pod } from '@kubelab/api';
import { FakeClock, FakeListWatch, flushPromises } from '@kubelab/client/testing';
import { MIN_IDLE_TIME_MS, ObjectCache, ObjectManager, maxIdleTimeMs } from './watch-based-manager.js';

const cm = (namespace: string, name: string, data: Record<string, string> = {}, immutable?: boolean): ConfigMap => ({ metadata: { name, namespace }, data, ...(immutable ? { immutable } : {}) });

/** A cache over one FakeListWatch per object (as the field selector metadata.name=<name> in its namespace gives each reflector). */
function setup(o: { syncTimeoutMs?: number } = {}) {
  const clock = new FakeClock();
  const sources = new Map<string, FakeListWatch<ConfigMap>>();
  const lw = (ns: string, name: string) => {
    const key = `${ns}/${name}`;
    if (!sources.has(key)) sources.set(key, new FakeListWatch<ConfigMap>());
    return sources.get(key)!;
  };
  const cache = new ObjectCache<ConfigMap>({
    resource: 'configmap',
    listWatch: lw,
    clock,
    maxIdleTimeMs: maxIdleTimeMs(60_000),
    syncTimeoutMs: o.syncTimeoutMs ?? 1000,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  return { clock, cache, lw };
}

const pod = (uid: string, configMaps: string[], namespace = 'ns'): Pod => ({
  metadata: { uid, name: uid, namespace },
  spec: { containers: [{ name: 'c', envFrom: configMaps.map((name) => ({ configMapRef: { name } })) }] },
});

describe('maxIdleTimeMs (upstream NewWatchBasedManager)', () => {
  it.each([
    [60_000, 300_000],
    [1_000, MIN_IDLE_TIME_MS],
    [300, MIN_IDLE_TIME_MS],
  ])('sync frequency %i ms: an unread reflector stops after %i ms', (sync, want) => {
    expect(maxIdleTimeMs(sync)).toBe(want);
  });
});

describe('ObjectCache (upstream objectCache)', () => {
  it('reads a referenced object from its watch: one list, then the changes the watch brings, no further requests', async () => {
    const { cache, lw } = setup();
    const src = lw('ns', 'app');
    src.add(cm('ns', 'app', { k: 'v1' }));
    cache.addReference('ns', 'app', 'pod-a');
    expect((await cache.get('ns', 'app'))?.data).toEqual({ k: 'v1' });
    src.modify(cm('ns', 'app', { k: 'v2' }));
    await flushPromises();
    expect((await cache.get('ns', 'app'))?.data).toEqual({ k: 'v2' });
    expect(src.listCalls).toHaveLength(1);
    expect(src.watchers).toBe(1);
    src.delete(cm('ns', 'app'));
    await flushPromises();
    expect(await cache.get('ns', 'app')).toBeUndefined();
  });

  it('a missing object reads as undefined (the caller says `configmap "x" not found`); an unreferenced one is an error', async () => {
    const { cache } = setup();
    cache.addReference('ns', 'absent', 'pod-a');
    expect(await cache.get('ns', 'absent')).toBeUndefined();
    await expect(cache.get('ns', 'other')).rejects.toThrow('object "ns"/"other" not registered');
  });

  it('a read waits for the first list, and gives up after the sync timeout with upstream text', async () => {
    const { cache, lw, clock } = setup();
    const src = lw('ns', 'slow');
    // Failing lists (the reflector's back-off retries within the second fail too).
    src.failNextLists(...Array.from({ length: 3 }, () => new Error('apiserver overloaded')));
    cache.addReference('ns', 'slow', 'pod-a');
    const read = expect(cache.get('ns', 'slow')).rejects.toThrow('failed to sync configmap cache: timed out waiting for the condition');
    await flushPromises();
    await clock.advance(1000);
    await read;
    // The reflector retries after its back-off; a later read finds the list.
    src.add(cm('ns', 'slow', { k: 'v' }));
    for (let i = 0; i < 4; i++) {
      await clock.advance(30_000);
      await flushPromises();
    }
    expect((await cache.get('ns', 'slow'))?.data).toEqual({ k: 'v' });
  });

  it('counts references per pod: the watch stops when the last pod lets go, not before', async () => {
    const { cache, lw } = setup();
    const src = lw('ns', 'shared');
    cache.addReference('ns', 'shared', 'a');
    cache.addReference('ns', 'shared', 'b');
    cache.addReference('ns', 'shared', 'b'); // the same pod again: still one reference
    await flushPromises();
    expect(src.watchers).toBe(1);
    cache.deleteReference('ns', 'shared', 'b');
    await flushPromises();
    expect(src.watchers).toBe(1);
    cache.deleteReference('ns', 'shared', 'a');
    await flushPromises();
    expect(src.watchers).toBe(0);
    expect(cache.stats()).toEqual({ objects: 0, watching: 0 });
  });

  it('stops the watch of an object not read for maxIdleTime and starts it again on the next read', async () => {
    const { cache, lw, clock } = setup();
    const src = lw('ns', 'env-only');
    src.add(cm('ns', 'env-only', { k: 'v1' }));
    cache.addReference('ns', 'env-only', 'a');
    await cache.get('ns', 'env-only');
    await clock.advance(299_000);
    cache.recycleIdle();
    await flushPromises();
    expect(src.watchers).toBe(1);
    await clock.advance(2_000);
    cache.recycleIdle();
    await flushPromises();
    expect(cache.stats()).toEqual({ objects: 1, watching: 0 });
    expect(src.watchers).toBe(0);
    src.modify(cm('ns', 'env-only', { k: 'v2' }));
    // Not stale: the read lists again.
    expect((await cache.get('ns', 'env-only'))?.data).toEqual({ k: 'v2' });
    expect(src.listCalls).toHaveLength(2);
  });

  it('closes the watch of an immutable object once read, and keeps serving it', async () => {
    const { cache, lw, clock } = setup();
    const src = lw('ns', 'frozen');
    src.add(cm('ns', 'frozen', { k: 'v' }, true));
    cache.addReference('ns', 'frozen', 'a');
    expect((await cache.get('ns', 'frozen'))?.data).toEqual({ k: 'v' });
    await flushPromises();
    expect(src.watchers).toBe(0);
    await clock.advance(10 * 60_000);
    expect((await cache.get('ns', 'frozen'))?.data).toEqual({ k: 'v' });
    expect(src.listCalls).toHaveLength(1);
  });
});

describe('ObjectManager (upstream cacheBasedManager)', () => {
  it('follows what registered pods refer to, moving references when a pod changes and dropping them when it goes', async () => {
    const { cache } = setup();
    const m = new ObjectManager(cache, podConfigMapNames);
    m.registerPod(pod('a', ['one', 'two']));
    m.registerPod(pod('b', ['two']));
    expect(cache.stats().objects).toBe(2);
    m.registerPod(pod('a', ['three'])); // a's new version refers to three only
    expect(cache.stats().objects).toBe(2); // two (b) and three (a)
    await expect(m.get('ns', 'one')).rejects.toThrow('not registered');
    m.unregisterPod('b');
    await expect(m.get('ns', 'two')).rejects.toThrow('not registered');
    m.unregisterPod('a');
    expect(cache.stats()).toEqual({ objects: 0, watching: 0 });
    expect(m.registeredPods()).toEqual([]);
  });
});
