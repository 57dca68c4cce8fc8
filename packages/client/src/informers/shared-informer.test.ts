import { expired, type ConfigMap } from '@kubelab/api';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeListWatch } from '../testing/fake-listwatch.js';
import { FakeClock, flushPromises } from '../util/fake-clock.js';
import { silentLogger } from '../util/logger.js';
import { DeletedFinalStateUnknown } from './keys.js';
import { SharedIndexInformer, waitForCacheSync, type ResourceEventHandler } from './shared-informer.js';

const cm = (name: string, data: Record<string, string> = {}, ns = 'default'): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: ns, name },
  data,
});

type Note = string;

/** Records handler calls as readable lines: `add default/a rv=1 initial`. */
function recorder(): { notes: Note[]; handler: ResourceEventHandler<ConfigMap> } {
  const notes: Note[] = [];
  const id = (o: ConfigMap) => `${o.metadata.namespace}/${o.metadata.name} rv=${o.metadata.resourceVersion}`;
  return {
    notes,
    handler: {
      onAdd: (o, initial) => notes.push(`add ${id(o)}${initial ? ' initial' : ''}`),
      onUpdate: (a, b) => notes.push(`update ${id(a)} -> ${b.metadata.resourceVersion}`),
      onDelete: (o) => notes.push(o instanceof DeletedFinalStateUnknown ? `delete tombstone ${o.key}` : `delete ${id(o)}`),
    },
  };
}

function cacheView(inf: SharedIndexInformer<ConfigMap>): string[] {
  return inf
    .getIndexer()
    .list()
    .map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}:${JSON.stringify(o.data)}`)
    .sort();
}

function sourceView(lw: FakeListWatch<ConfigMap>): string[] {
  return lw
    .snapshot()
    .map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}:${JSON.stringify(o.data)}`)
    .sort();
}

const running: SharedIndexInformer<ConfigMap>[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((i) => i.stop()));
});

function setup(opts: { resyncPeriodMs?: number } = {}) {
  const clock = new FakeClock();
  const lw = new FakeListWatch<ConfigMap>();
  const inf = new SharedIndexInformer<ConfigMap>(lw, {
    clock,
    logger: silentLogger,
    name: 'configmaps',
    resyncPeriodMs: opts.resyncPeriodMs ?? 0,
    reflector: { backoff: { initialMs: 1000, maxMs: 1000 }, watchTimeoutSeconds: () => 300 },
  });
  running.push(inf);
  return { clock, lw, inf };
}

describe('SharedIndexInformer', () => {
  it('lists, reports the initial items as initial adds, then follows the watch', async () => {
    const { lw, inf } = setup();
    lw.add(cm('a'));
    lw.add(cm('b'));
    const r = recorder();
    inf.addEventHandler(r.handler);
    inf.run();
    expect(await waitForCacheSync(undefined, inf)).toBe(true);
    await flushPromises();
    expect(inf.hasSynced()).toBe(true);
    expect(lw.listCalls).toEqual([{ resourceVersion: '0' }]);
    expect(lw.watchCalls).toEqual([{ resourceVersion: '2', allowWatchBookmarks: true, timeoutSeconds: 300 }]);

    lw.modify(cm('a', { k: 'v' }));
    lw.add(cm('c'));
    lw.delete(cm('b'));
    await flushPromises();
    expect(r.notes).toEqual(['add default/a rv=1 initial', 'add default/b rv=2 initial', 'update default/a rv=1 -> 3', 'add default/c rv=4', 'delete default/b rv=5']);
    expect(cacheView(inf)).toEqual(sourceView(lw));
    expect(inf.lastSyncResourceVersion()).toBe('5');
  });

  it('resumes the watch from the last revision after a dropped connection: nothing missed, nothing twice', async () => {
    const { clock, lw, inf } = setup();
    lw.add(cm('a'));
    const r = recorder();
    inf.addEventHandler(r.handler);
    inf.run();
    await inf.whenSynced();
    await flushPromises();
    lw.modify(cm('a', { n: '1' }));
    await flushPromises();
    lw.dropWatches();
    // changes while disconnected
    lw.modify(cm('a', { n: '2' }));
    lw.add(cm('b'));
    await flushPromises();
    expect(lw.watchers).toBe(0);
    await clock.advance(1000); // reflector backoff
    expect(lw.watchCalls.map((c) => c.resourceVersion)).toEqual(['1', '2']);
    expect(lw.listCalls).toHaveLength(1); // resumed, not relisted
    expect(r.notes).toEqual(['add default/a rv=1 initial', 'update default/a rv=1 -> 2', 'update default/a rv=2 -> 3', 'add default/b rv=4']);
    expect(cacheView(inf)).toEqual(sourceView(lw));
    expect(inf.reflectorStats).toMatchObject({ lists: 1, watches: 2, resumes: 1, relistsOn410: 0 });
  });

  it('resumes from a BOOKMARK revision and re-watches at once when the server closes the watch', async () => {
    const { lw, inf } = setup();
    inf.run();
    await inf.whenSynced();
    await flushPromises();
    // other objects' revisions (filtered out server-side) advance the clock of the bookmark
    lw.add(cm('x', {}, 'other'));
    await flushPromises();
    lw.bookmark();
    await flushPromises();
    lw.closeWatches();
    await flushPromises();
    expect(lw.watchCalls.map((c) => c.resourceVersion)).toEqual(['0', '1']);
  });

  it('relists on 410 Expired and reconciles the cache, with tombstones for objects it missed the deletion of', async () => {
    const { clock, lw, inf } = setup();
    lw.add(cm('keep'));
    lw.add(cm('gone'));
    const r = recorder();
    inf.addEventHandler(r.handler);
    inf.run();
    await inf.whenSynced();
    await flushPromises();
    lw.dropWatches();
    lw.delete(cm('gone'));
    lw.modify(cm('keep', { v: '2' }));
    lw.add(cm('new'));
    lw.compact(); // history gone: resuming from rv 2 gets 410
    await flushPromises();
    await clock.advance(1000);
    expect(r.notes).toEqual(['add default/keep rv=1 initial', 'add default/gone rv=2 initial', 'update default/keep rv=1 -> 4', 'add default/new rv=5', 'delete tombstone default/gone']);
    expect(cacheView(inf)).toEqual(sourceView(lw));
    expect(lw.listCalls.map((c) => c.resourceVersion)).toEqual(['0', '2']);
    expect(inf.reflectorStats.relistsOn410).toBe(1);
    expect(lw.watchCalls.at(-1)?.resourceVersion).toBe('5');
  });

  it('relists on an ERROR event carrying 410, and reads the latest state when the list rv is gone too', async () => {
    const { clock, lw, inf } = setup();
    lw.add(cm('a'));
    inf.run();
    await inf.whenSynced();
    await flushPromises();
    lw.add(cm('b'));
    await flushPromises();
    lw.failNextLists(expired('too old resource version: 2 (3)'));
    lw.expireWatches();
    await flushPromises();
    await clock.advance(1000);
    await clock.advance(1000);
    expect(lw.listCalls.map((c) => c.resourceVersion)).toEqual(['0', '2', '']);
    expect(cacheView(inf)).toEqual(sourceView(lw));
    expect(inf.hasSynced()).toBe(true);
  });

  it('never announces a replayed revision twice', async () => {
    const { lw, inf } = setup();
    const r = recorder();
    inf.addEventHandler(r.handler);
    inf.run();
    await inf.whenSynced();
    await flushPromises();
    const a = lw.add(cm('a'));
    await flushPromises();
    // a buggy server replays the same event
    (lw as unknown as { active: Set<{ push(e: unknown): void }> }).active.forEach((w) => w.push({ type: 'MODIFIED', object: a }));
    await flushPromises();
    expect(r.notes).toEqual(['add default/a rv=1']);
  });

  it('resyncs: handlers get updates with the same object every period', async () => {
    const { clock, lw, inf } = setup({ resyncPeriodMs: 30_000 });
    lw.add(cm('a'));
    const r = recorder();
    inf.addEventHandler(r.handler);
    const noResync = recorder();
    inf.addEventHandler(noResync.handler, 0);
    inf.run();
    await inf.whenSynced();
    await clock.advance(29_999);
    expect(r.notes).toEqual(['add default/a rv=1 initial']);
    await clock.advance(1);
    await clock.advance(30_000);
    expect(r.notes).toEqual(['add default/a rv=1 initial', 'update default/a rv=1 -> 1', 'update default/a rv=1 -> 1']);
    expect(noResync.notes).toEqual(['add default/a rv=1 initial']);
  });

  it('tells a late handler about what is cached, and a throwing handler does not stop others', async () => {
    const { lw, inf } = setup();
    lw.add(cm('a'));
    inf.addEventHandler({
      onAdd: () => {
        throw new Error('handler bug');
      },
    });
    inf.run();
    await inf.whenSynced();
    await flushPromises();
    const late = recorder();
    const reg = inf.addEventHandler(late.handler);
    expect(reg.hasSynced()).toBe(true);
    expect(late.notes).toEqual(['add default/a rv=1 initial']);
    lw.add(cm('b'));
    await flushPromises();
    expect(late.notes).toEqual(['add default/a rv=1 initial', 'add default/b rv=2']);
    reg.remove();
    lw.add(cm('c'));
    await flushPromises();
    expect(late.notes).toHaveLength(2);
  });

  it('retries a failed first list after a backoff; waitForCacheSync gives false on abort', async () => {
    const { clock, lw, inf } = setup();
    lw.failNextLists(new Error('connection refused'));
    inf.run();
    await flushPromises();
    expect(inf.hasSynced()).toBe(false);
    const ac = new AbortController();
    const waiting = waitForCacheSync(ac.signal, inf);
    ac.abort();
    expect(await waiting).toBe(false);
    await clock.advance(1000);
    expect(inf.hasSynced()).toBe(true);
    expect(lw.listCalls).toHaveLength(2);
  });

  it('stop() ends the watch', async () => {
    const { lw, inf } = setup();
    inf.run();
    await inf.whenSynced();
    await flushPromises();
    expect(lw.watchers).toBe(1);
    await inf.stop();
    expect(lw.watchers).toBe(0);
    expect(inf.isRunning()).toBe(false);
  });
});
