// The watch cache stepped by hand (ingest), without NATS: window, 410,
// slow-watcher overflow, codec splicing.

import { describe, expect, it } from 'vitest';
import { RESOURCES, type KubeObject } from '@kubelab/api';
import type { KvStorage } from '../storage/kv.js';
import { decodeStored, encodeForStorage, revisionOffset, spliceRevision, storageString, storesAs, withRevision } from '../storage/codec.js';
import { WatchCache } from './watch-cache.js';
import { rawJson, rawText } from './raw.js';
import { watchTrigger } from './triggers.js';
import { compileSelectors } from '../registry/api-hooks.js';

const cms = RESOURCES.find((r) => r.resource === 'configmaps')!;
const fakeStorage = {} as KvStorage;

function cm(name: string, data: Record<string, string> = {}): Uint8Array {
  return encodeForStorage({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data } as KubeObject);
}

function syncedCache(opts: { windowSize?: number; watcherBuffer?: number } = {}): WatchCache {
  const c = new WatchCache(fakeStorage, { bookmarkIntervalMs: 1e9, ...opts });
  // No stored state: synced at revision 0 (what run() does for an empty bucket).
  (c as unknown as { markSynced(rev: number): void }).markSynced(0);
  return c;
}

describe('codec', () => {
  it('splices the revision into the stored bytes and can change it', () => {
    const { obj, wire } = decodeStored(cm('a', { k: 'v' }), 42);
    expect(obj.metadata.resourceVersion).toBe('42');
    expect(JSON.parse(wire.buf.toString())).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: '42', name: 'a', namespace: 'ns' }, data: { k: 'v' } });
    const changed = withRevision(wire, '1000');
    expect(JSON.parse(changed.buf.toString()).metadata.resourceVersion).toBe('1000');
    expect(JSON.parse(withRevision(changed, '7').buf.toString())).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: '7', name: 'a', namespace: 'ns' }, data: { k: 'v' } });
  });

  it('splices the revision into the bytes, also around multi-byte characters', () => {
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' }, data: { greeting: 'grüß dich ✓' } } as KubeObject;
    const text = storageString(obj);
    const bytes = new TextEncoder().encode(text);
    const wire = spliceRevision(bytes, revisionOffset(text, obj), '17');
    expect(JSON.parse(wire.buf.toString('utf8'))).toEqual({ ...obj, metadata: { resourceVersion: '17', name: 'a', namespace: 'ns' } });
    const exotic = { apiVersion: 'v1', kind: 'Kïnd', metadata: {} } as KubeObject;
    const t2 = storageString(exotic);
    const w2 = spliceRevision(new TextEncoder().encode(t2), revisionOffset(t2, exotic), '3');
    expect(w2.buf.toString('utf8')).toBe('{"apiVersion":"v1","kind":"Kïnd","metadata":{"resourceVersion":"3"}}');
    expect(withRevision(w2, '12').buf.toString('utf8')).toBe('{"apiVersion":"v1","kind":"Kïnd","metadata":{"resourceVersion":"12"}}');
  });

  it('tells whether stored bytes are what a wire form was made from (a no-op update)', () => {
    const stored = cm('a', { k: 'v' });
    const { wire } = decodeStored(stored, 42);
    expect([storesAs(wire, stored), storesAs(wire, cm('a', { k: 'w' })), storesAs(wire, cm('a', { k: 'vv' }))]).toEqual([true, false, false]);
    const bare = encodeForStorage({ apiVersion: 'v1', kind: 'Namespace', metadata: {} } as KubeObject);
    expect(storesAs(decodeStored(bare, 3).wire, bare)).toBe(true);
  });

  it('stores apiVersion, kind and metadata first whatever order the object has them in', () => {
    const want = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}}';
    const orders = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } },
      { data: { k: 'v' }, metadata: { name: 'a' }, kind: 'ConfigMap', apiVersion: 'v1' },
      { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', resourceVersion: '5' }, data: { k: 'v' } },
      { apiVersion: 'v1', kind: 'ConfigMap', data: { k: 'v' }, metadata: { name: 'a' } },
    ];
    expect(orders.map((o) => storageString(o as KubeObject))).toEqual(orders.map(() => want));
    for (const o of orders) expect(revisionOffset(storageString(o as KubeObject), o as KubeObject)).toBe('{"apiVersion":"v1","kind":"ConfigMap","metadata":{'.length);
    // Another kind after these: its own prefix, not the one remembered.
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } } as KubeObject;
    expect(revisionOffset(storageString(ns), ns)).toBe('{"apiVersion":"v1","kind":"Namespace","metadata":{'.length);
  });

  it('never stores resourceVersion', () => {
    const bytes = encodeForStorage({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '9' } } as KubeObject);
    expect(new TextDecoder().decode(bytes)).toBe('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}');
  });
});

describe('WatchCache', () => {
  it('serves objects with their revision and keeps their JSON for the transports', () => {
    const c = syncedCache();
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a'), 5);
    const e = c.get('/registry/configmaps/ns/a')!;
    expect(e.obj.metadata.resourceVersion).toBe('5');
    expect(JSON.parse(rawText(e.obj))).toEqual(e.obj);
    expect(Object.isFrozen(e.obj.metadata)).toBe(true);
    c.stop();
  });

  it('hands a watcher pinned to a node only the events of pods on it, and the move onto it or off it', () => {
    const pods = RESOURCES.find((r) => r.resource === 'pods' && r.group === '')!;
    const pod = (name: string, nodeName?: string) =>
      encodeForStorage({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: nodeName ? { nodeName } : {} } as unknown as KubeObject);
    const on = (node: string) => compileSelectors(undefined, `spec.nodeName=${node}`);
    const c = syncedCache();
    const all = c.watch({ info: pods, prefix: '/registry/pods', resourceVersion: '0' });
    const n1 = c.watch({ info: pods, prefix: '/registry/pods', resourceVersion: '0', predicate: on('node-1'), trigger: watchTrigger(pods, 'spec.nodeName=node-1')! });
    const n2 = c.watch({ info: pods, prefix: '/registry/pods', resourceVersion: '0', predicate: on('node-2'), trigger: watchTrigger(pods, 'spec.nodeName=node-2')! });
    const unassigned = c.watch({ info: pods, prefix: '/registry/pods', resourceVersion: '0', predicate: on(''), trigger: watchTrigger(pods, 'spec.nodeName=')! });
    c.ingest('/registry/pods/ns/a', 'PUT', pod('a'), 1);
    c.ingest('/registry/pods/ns/a', 'PUT', pod('a', 'node-1'), 2); // bound
    c.ingest('/registry/pods/ns/b', 'PUT', pod('b', 'node-2'), 3);
    c.ingest('/registry/pods/ns/a', 'DEL', new Uint8Array(), 4);
    const seen = (w: ReturnType<typeof c.watch>) => w.drain().map((e) => `${e.type} ${e.object.metadata.name}@${e.object.metadata.resourceVersion}`);
    expect(seen(all)).toEqual(['ADDED a@1', 'MODIFIED a@2', 'ADDED b@3', 'DELETED a@4']);
    expect(seen(n1)).toEqual(['ADDED a@2', 'DELETED a@4']);
    expect(seen(n2)).toEqual(['ADDED b@3']);
    expect(seen(unassigned)).toEqual(['ADDED a@1', 'DELETED a@2']);
    // A watcher that ends leaves the index: later events of its node reach no one else.
    n2.stop();
    c.ingest('/registry/pods/ns/b', 'PUT', pod('b', 'node-2'), 5);
    expect(seen(all)).toEqual(['MODIFIED b@5']);
    expect(seen(n1)).toEqual([]);
    c.stop();
  });

  it('lists the pods of a node from its index, sorted as a full list is, through binds, moves, deletes and recreates', () => {
    const pod = (ns: string, name: string, nodeName?: string) =>
      encodeForStorage({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, spec: nodeName ? { nodeName } : {} } as unknown as KubeObject);
    const c = syncedCache();
    const names = (entries: ReadonlyArray<{ key: string }> | undefined) => entries?.map((e) => e.key.slice('/registry/pods/'.length));
    let rev = 0;
    const put = (ns: string, name: string, node?: string) => c.ingest(`/registry/pods/${ns}/${name}`, 'PUT', pod(ns, name, node), ++rev);
    const del = (ns: string, name: string) => c.ingest(`/registry/pods/${ns}/${name}`, 'DEL', new Uint8Array(), ++rev);
    put('b', 'web-2', 'node-1');
    put('a', 'web-9');
    put('a', 'web-1', 'node-2');
    expect(names(c.list('/registry/pods'))).toEqual(['a/web-1', 'a/web-9', 'b/web-2']);
    put('a', 'web-9', 'node-1'); // bound
    put('a', 'web-0', 'node-1'); // a key before the others: the sorted keys take it in place
    put('a', 'web-1', 'node-1'); // moved (a recreate's new node)
    del('b', 'web-2');
    expect(names(c.list('/registry/pods'))).toEqual(['a/web-0', 'a/web-1', 'a/web-9']);
    expect(names(c.listByTrigger('/registry/pods', 'node-1'))).toEqual(['a/web-0', 'a/web-1', 'a/web-9']);
    expect(names(c.listByTrigger('/registry/pods', 'node-2'))).toEqual([]);
    expect(names(c.listByTrigger('/registry/pods', 'node-1', 'b'))).toEqual([]);
    put('b', 'web-2', 'node-2');
    expect(names(c.listByTrigger('/registry/pods', 'node-2', 'b'))).toEqual(['b/web-2']);
    expect(names(c.listByTrigger('/registry/pods', ''))).toEqual([]);
    // A resource without a trigger field has no index: the caller lists it all.
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a'), ++rev);
    expect(c.listByTrigger('/registry/configmaps', 'x')).toBeUndefined();
    c.stop();
  });

  it('ignores a revision it has already applied (exactly once across feed restarts)', () => {
    const c = syncedCache();
    const w = c.watch({ info: cms, prefix: '/registry/configmaps', resourceVersion: '0' });
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a'), 5);
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a'), 5);
    expect(w.drain().map((e) => e.type)).toEqual(['ADDED']);
    c.stop();
  });

  it("knows each key's newest message for a create: the object's revision, else its delete marker's, until the oldest markers are forgotten", () => {
    const c = syncedCache();
    const key = (n: string) => `/registry/configmaps/ns/${n}`;
    c.ingest(key('a'), 'PUT', cm('a'), 3);
    c.ingest(key('b'), 'PUT', cm('b'), 4);
    c.ingest(key('b'), 'DEL', new Uint8Array(), 5);
    // A marker for a key the cache never held (the initial load delivers deleted keys' markers too).
    c.ingest(key('c'), 'PURGE', new Uint8Array(), 6);
    expect([c.lastKnown(key('a')), c.lastKnown(key('b')), c.lastKnown(key('c')), c.lastKnown(key('d'))]).toEqual([
      { revision: 3, live: true },
      { revision: 5, live: false },
      { revision: 6, live: false },
      undefined,
    ]);
    c.ingest(key('b'), 'PUT', cm('b'), 7);
    expect(c.lastKnown(key('b'))).toEqual({ revision: 7, live: true });
    // This apiserver's own write, not applied yet: possibly live, so the storage asks the leader.
    c.observeWrite(8, key('e'));
    expect(c.lastKnown(key('e'))).toEqual({ revision: 8, live: true });
    c.ingest(key('e'), 'DEL', new Uint8Array(), 8);
    expect(c.lastKnown(key('e'))).toEqual({ revision: 8, live: false });
    // Bounded: 10,000 markers are kept, the oldest dropped first.
    for (let i = 0; i < 10_000; i++) c.ingest(key(`x${i}`), 'DEL', new Uint8Array(), 100 + i);
    expect([c.lastKnown(key('c')), c.lastKnown(key('x0')), c.lastKnown(key('x9999'))]).toEqual([undefined, { revision: 100, live: false }, { revision: 10_099, live: false }]);
    c.stop();
  });

  it('replays from the window and answers 410 below it', () => {
    const c = syncedCache({ windowSize: 3 });
    for (let rev = 1; rev <= 6; rev++) c.ingest(`/registry/configmaps/ns/o${rev}`, 'PUT', cm(`o${rev}`), rev);
    const ok = c.watch({ info: cms, prefix: '/registry/configmaps', resourceVersion: '3' });
    expect(ok.drain().map((e) => e.object.metadata.resourceVersion)).toEqual(['4', '5', '6']);
    const old = c.watch({ info: cms, prefix: '/registry/configmaps', resourceVersion: '2' });
    const evs = old.drain();
    expect(evs).toHaveLength(1);
    expect(evs[0]).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired', message: 'too old resource version: 2 (3)' } });
    expect(old.isEnded).toBe(true);
    c.stop();
  });

  it('closes a watcher that falls behind without holding up the others, dropping what it held', async () => {
    const c = syncedCache({ watcherBuffer: 4 });
    const slow = c.watch({ info: cms, prefix: '/registry/configmaps', resourceVersion: '0' });
    const fast = c.watch({ info: cms, prefix: '/registry/configmaps', resourceVersion: '0' });
    const fastSeen: string[] = [];
    for (let rev = 1; rev <= 10; rev++) {
      c.ingest(`/registry/configmaps/ns/o${rev}`, 'PUT', cm(`o${rev}`), rev);
      fastSeen.push(...fast.drain().map((e) => e.object.metadata.resourceVersion!));
    }
    expect(fastSeen).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    // Its buffer is freed at once (memory stays bounded); the client reads only the 410 and relists.
    const slowEvents = slow.drain();
    expect(slowEvents).toEqual([{ type: 'ERROR', object: expect.objectContaining({ code: 410, reason: 'Expired' }) }]);
    expect(slow.isEnded).toBe(true);
    await expect(slow.done).resolves.toBeUndefined();
    expect(c.watcherTotal).toBe(1);
    c.stop();
  });

  it('rebuilds a resource as it was at a revision from the window, until the window has passed it', () => {
    const c = syncedCache({ windowSize: 4 });
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a'), 1);
    c.ingest('/registry/configmaps/ns/b', 'PUT', cm('b'), 2);
    c.ingest('/registry/configmaps/other/c', 'PUT', cm('c'), 3);
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a', { v: '2' }), 4);
    c.ingest('/registry/configmaps/ns/b', 'DEL', new Uint8Array(), 5);
    c.ingest('/registry/configmaps/ns/d', 'PUT', cm('d'), 6);
    const at = (rev: number, ns?: string) => c.listAt('/registry/configmaps', rev, ns)?.map((e) => `${e.name}@${e.rev}`);
    expect(at(6)).toEqual(['a@4', 'd@6', 'c@3']);
    expect(at(3)).toEqual(['a@1', 'b@2', 'c@3']);
    expect(at(3, 'ns')).toEqual(['a@1', 'b@2']);
    expect(at(4, 'ns')).toEqual(['a@4', 'b@2']);
    // Four events kept (3..6): revision 2 is the oldest state still known.
    expect(c.oldestRev).toBe(2);
    expect(at(2)).toEqual(['a@1', 'b@2']);
    expect(at(1)).toBeUndefined();
    c.stop();
  });

  it('sends a watch-list its state, then the bookmark that ends the initial events', () => {
    const c = syncedCache();
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a'), 1);
    c.ingest('/registry/configmaps/ns/b', 'PUT', cm('b'), 2);
    const w = c.watch({ info: cms, prefix: '/registry/configmaps', sendInitialEvents: true, allowWatchBookmarks: true });
    expect(w.drain()).toEqual([
      { type: 'ADDED', object: expect.objectContaining({ metadata: expect.objectContaining({ name: 'a' }) }) },
      { type: 'ADDED', object: expect.objectContaining({ metadata: expect.objectContaining({ name: 'b' }) }) },
      { type: 'BOOKMARK', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: '2', annotations: { 'k8s.io/initial-events-end': 'true' } } } },
    ]);
    // Without bookmarks no end marker; sendInitialEvents=false starts from now.
    expect(
      c
        .watch({ info: cms, prefix: '/registry/configmaps', sendInitialEvents: true })
        .drain()
        .map((e) => e.type),
    ).toEqual(['ADDED', 'ADDED']);
    const later = c.watch({ info: cms, prefix: '/registry/configmaps', sendInitialEvents: false });
    c.ingest('/registry/configmaps/ns/e', 'PUT', cm('e'), 3);
    expect(later.drain().map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED e']);
    c.stop();
  });

  it('bookmarks an idle watcher a minute after it started, then each minute, and 2 s before its deadline, as upstream', () => {
    let now = 0;
    const c = new WatchCache(fakeStorage, { bookmarkIntervalMs: 1e9, now: () => now });
    (c as unknown as { markSynced(rev: number): void }).markSynced(0);
    const idle = c.watch({ info: cms, prefix: '/registry/configmaps', namespace: 'quiet', resourceVersion: '0', allowWatchBookmarks: true });
    const timed = c.watch({ info: cms, prefix: '/registry/configmaps', namespace: 'quiet', resourceVersion: '0', allowWatchBookmarks: true, timeoutSeconds: 90 });
    const none = c.watch({ info: cms, prefix: '/registry/configmaps', namespace: 'quiet', resourceVersion: '0' });
    const bookmarksAt: string[] = [];
    let rev = 0;
    // A write elsewhere each second and the bookmark timer's tick half a second later (upstream's rates), for 150 s.
    for (let t = 1; t <= 150; t++) {
      now = t * 1000;
      c.ingest(`/registry/configmaps/busy/o${t}`, 'PUT', cm(`o${t}`), ++rev);
      now += 500;
      c.sendBookmarks();
      for (const [name, w] of [
        ['idle', idle],
        ['timed', timed],
        ['none', none],
      ] as const) {
        for (const e of w.drain()) bookmarksAt.push(`${name} ${e.type} ${now / 1000}s rv=${e.object.metadata.resourceVersion}`);
      }
    }
    expect(bookmarksAt).toEqual(['idle BOOKMARK 60.5s rv=60', 'timed BOOKMARK 60.5s rv=60', 'timed BOOKMARK 88.5s rv=88', 'idle BOOKMARK 120.5s rv=120']);
    c.stop();
  });

  it("keeps the request's deadline when the watch subscribes late: the last bookmark still comes 2 s before it", () => {
    let now = 0;
    const c = new WatchCache(fakeStorage, { bookmarkIntervalMs: 1e9, now: () => now });
    (c as unknown as { markSynced(rev: number): void }).markSynced(0);
    // Asked at 0 with timeoutSeconds=10; subscribed 5 s later (a cache sync, a consistent read).
    const deadline = c.clock() + 10_000;
    now = 5000;
    const late = c.watch({ info: cms, prefix: '/registry/configmaps', namespace: 'quiet', resourceVersion: '0', allowWatchBookmarks: true, timeoutSeconds: 10, deadline });
    const fresh = c.watch({ info: cms, prefix: '/registry/configmaps', namespace: 'quiet', resourceVersion: '0', allowWatchBookmarks: true, timeoutSeconds: 10 });
    const seen: string[] = [];
    for (let t = 6; t <= 14; t++) {
      now = t * 1000;
      c.ingest(`/registry/configmaps/busy/o${t}`, 'PUT', cm(`o${t}`), t);
      now += 500;
      c.sendBookmarks();
      for (const [name, w] of [
        ['late', late],
        ['fresh', fresh],
      ] as const) {
        for (const e of w.drain()) seen.push(`${name} ${e.type} ${now / 1000}s`);
      }
    }
    expect([late.deadline, fresh.deadline]).toEqual([10_000, 15_000]);
    expect(seen).toEqual(['late BOOKMARK 8.5s', 'fresh BOOKMARK 13.5s']);
    c.stop();
  });

  it('waits for a revision before serving a read (read-your-writes)', async () => {
    const c = syncedCache();
    c.observeWrite(7, '/registry/configmaps/ns/a');
    let done = false;
    const p = c.waitConsistent().then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a'), 7);
    await p;
    expect(done).toBe(true);
    c.stop();
  });

  it('says whether it caught up with its own writes in time, for a GET to read the storage instead (a decode of it not cached)', async () => {
    const c = syncedCache();
    expect(await c.caughtUp(50)).toBe(true);
    c.observeWrite(7, '/registry/configmaps/ns/a');
    expect(await c.caughtUp(50)).toBe(false);
    const stored = c.decodeStored('/registry/configmaps/ns/a', cm('a', { k: 'v' }), 7);
    expect(stored).toMatchObject({ metadata: { name: 'a', resourceVersion: '7' }, data: { k: 'v' } });
    expect(c.get('/registry/configmaps/ns/a')).toBeUndefined();
    const late = c.caughtUp(5_000);
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a'), 7);
    expect(await late).toBe(true);
    c.stop();
  });

  it('waits for its own last write of one key, and only that key', async () => {
    const c = syncedCache();
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a'), 1);
    c.observeWrite(3, '/registry/configmaps/ns/a');
    c.observeWrite(4, '/registry/configmaps/ns/b');
    // Another key with nothing pending: at once, though revisions 3 and 4 are not applied yet.
    await c.waitForOwnWrite('/registry/configmaps/ns/c');
    let seen = false;
    const p = c.waitForOwnWrite('/registry/configmaps/ns/a').then(() => (seen = true));
    c.ingest('/registry/configmaps/ns/x', 'PUT', cm('x'), 2);
    await Promise.resolve();
    expect(seen).toBe(false);
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a'), 3);
    await p;
    expect(c.get('/registry/configmaps/ns/a')?.rev).toBe(3);
    // Applied: nothing pending for that key any more.
    await c.waitForOwnWrite('/registry/configmaps/ns/a');
    c.stop();
  });

  it('serves the object this apiserver wrote without decoding its watch event, frozen', () => {
    const c = syncedCache();
    const w = c.watch({ info: cms, prefix: '/registry/configmaps', resourceVersion: '0' });
    const key = '/registry/configmaps/ns/a';
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns', resourceVersion: '8' }, data: { k: 'v' } } as KubeObject;
    const text = storageString(obj);
    const stored = new TextEncoder().encode(text);
    c.adoptWrite(key, 8, obj, spliceRevision(stored, revisionOffset(text, obj), '8'), stored.length);
    expect(Object.isFrozen(obj.metadata)).toBe(true);
    expect(() => {
      (obj as { data?: Record<string, string> }).data!.k = 'changed';
    }).toThrow(TypeError);
    c.ingest(key, 'PUT', stored, 8);
    expect(c.get(key)!.obj).toBe(obj);
    const evs = w.drain();
    expect(evs.map((e) => e.type)).toEqual(['ADDED']);
    expect(evs[0]!.object).toBe(obj);
    expect(JSON.parse(rawJson(obj).toString())).toEqual(obj);
    c.stop();
  });

  it('decodes a watch event that is not exactly what this apiserver wrote at that revision', () => {
    const c = syncedCache();
    const mine = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' } } as KubeObject;
    const text = storageString(mine);
    const stored = new TextEncoder().encode(text);
    // Same revision, another key (cannot happen with one NATS stream, but never trust it).
    c.adoptWrite('/registry/configmaps/ns/a', 4, mine, spliceRevision(stored, revisionOffset(text, mine), '4'), stored.length);
    c.ingest('/registry/configmaps/ns/b', 'PUT', cm('b', { from: 'elsewhere' }), 4);
    const b = c.get('/registry/configmaps/ns/b')!.obj as KubeObject & { data?: Record<string, string> };
    expect(b.metadata.name).toBe('b');
    expect(b.data).toEqual({ from: 'elsewhere' });
    expect(c.get('/registry/configmaps/ns/a')).toBeUndefined();
    // Adopted after its event was already applied: nothing changes.
    c.adoptWrite('/registry/configmaps/ns/b', 4, mine, spliceRevision(stored, revisionOffset(text, mine), '4'), stored.length);
    expect(c.get('/registry/configmaps/ns/b')!.obj).toBe(b);
    c.stop();
  });
});

describe('WatchCache.observe', () => {
  it('sees every change of its resource in order, from the initial load on, until unsubscribed', () => {
    const c = new WatchCache(fakeStorage, { bookmarkIntervalMs: 1e9 });
    const seen: string[] = [];
    const off = c.observe('/registry/configmaps', (cur, prev) => seen.push(`${prev?.name ?? '-'}@${prev?.rev ?? 0}→${cur?.name ?? '-'}@${cur?.rev ?? 0}`));
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a'), 1); // before sync: still observed
    (c as unknown as { markSynced(rev: number): void }).markSynced(1);
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a', { k: 'v' }), 2);
    c.ingest('/registry/secrets/ns/s', 'PUT', encodeForStorage({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ns' } } as KubeObject), 3);
    c.ingest('/registry/configmaps/ns/a', 'DEL', new Uint8Array(), 4);
    off();
    c.ingest('/registry/configmaps/ns/b', 'PUT', cm('b'), 5);
    expect(seen).toEqual(['-@0→a@1', 'a@1→a@2', 'a@2→-@0']);
    c.stop();
  });
});

describe('a stalled storage watch', () => {
  it("is re-established when the store's info request fails but this apiserver's own writes are ahead of the cache", async () => {
    const watches: number[] = [];
    let stopped = 0;
    // Silent until stopped: the consumer it stood for is gone with its NATS server.
    const silentFeed = () => ({
      stop: () => void stopped++,
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          while (stopped < watches.length) await new Promise((r) => setTimeout(r, 5));
          return { done: true as const, value: undefined };
        },
      }),
    });
    const storage = {
      lastRevision: () => Promise.reject(new Error('JetStream system temporarily unavailable')),
      watch: (after: number) => {
        watches.push(after);
        return Promise.resolve(silentFeed());
      },
    } as unknown as KvStorage;
    const c = new WatchCache(storage, { bookmarkIntervalMs: 1e9, progressCheckMs: 10 });
    (c as unknown as { syncTarget: number }).syncTarget = 0;
    (c as unknown as { markSynced(rev: number): void }).markSynced(0);
    c.start();
    await new Promise((r) => setTimeout(r, 60));
    expect(watches).toEqual([0]); // nothing written: an idle store is not a stall
    c.observeWrite(7, '/registry/configmaps/ns/a');
    const deadline = Date.now() + 2_000;
    while (watches.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    c.stop();
    expect(watches.slice(0, 2)).toEqual([0, 0]);
    expect(stopped).toBeGreaterThanOrEqual(1);
  });

  it("says once, as an error, when its revision stays ahead of the stream leader's (replicas numbering differently)", async () => {
    const logged: string[] = [];
    const storage = {
      lastRevision: () => Promise.resolve(5),
      watch: () => Promise.resolve({ stop: () => undefined, [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => undefined) }) }),
    } as unknown as KvStorage;
    const c = new WatchCache(storage, { bookmarkIntervalMs: 1e9, progressCheckMs: 10, log: (level, msg, f) => logged.push(`${level} ${msg} ${JSON.stringify(f)}`) });
    (c as unknown as { syncTarget: number }).syncTarget = 0;
    (c as unknown as { markSynced(rev: number): void }).markSynced(0);
    c.start();
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a'), 9);
    await new Promise((r) => setTimeout(r, 100));
    c.stop();
    expect(logged).toEqual([`error storage replicas disagree: this watch's replica is ahead of the stream leader's last revision {"rev":9,"leaderRev":5}`]);
  });
});
