// The watch cache stepped by hand (ingest), without NATS: window, 410,
// slow-watcher overflow, codec splicing.

import { describe, expect, it } from 'vitest';
import { RESOURCES, type KubeObject } from '@kubelab/api';
import type { KvStorage } from '../storage/kv.js';
import { decodeStored, encodeForStorage, withRevision } from '../storage/codec.js';
import { WatchCache } from './watch-cache.js';
import { rawText } from './raw.js';

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
    expect(JSON.parse(wire.text)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: '42', name: 'a', namespace: 'ns' }, data: { k: 'v' } });
    expect(JSON.parse(withRevision(wire, '1000').text).metadata.resourceVersion).toBe('1000');
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

  it('ignores a revision it has already applied (exactly once across feed restarts)', () => {
    const c = syncedCache();
    const w = c.watch({ info: cms, prefix: '/registry/configmaps', resourceVersion: '0' });
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a'), 5);
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a'), 5);
    expect(w.drain().map((e) => e.type)).toEqual(['ADDED']);
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

  it('closes a watcher that falls behind without holding up the others', () => {
    const c = syncedCache({ watcherBuffer: 4 });
    const slow = c.watch({ info: cms, prefix: '/registry/configmaps', resourceVersion: '0' });
    const fast = c.watch({ info: cms, prefix: '/registry/configmaps', resourceVersion: '0' });
    const fastSeen: string[] = [];
    for (let rev = 1; rev <= 10; rev++) {
      c.ingest(`/registry/configmaps/ns/o${rev}`, 'PUT', cm(`o${rev}`), rev);
      fastSeen.push(...fast.drain().map((e) => e.object.metadata.resourceVersion!));
    }
    expect(fastSeen).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    const slowEvents = slow.drain();
    expect(slowEvents.slice(0, 4).map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'ADDED', 'ADDED']);
    expect(slowEvents[4]).toMatchObject({ type: 'ERROR', object: { code: 410 } });
    expect(slow.isEnded).toBe(true);
    expect(c.watcherTotal).toBe(1);
    c.stop();
  });

  it('waits for a revision before serving a read (read-your-writes)', async () => {
    const c = syncedCache();
    c.observeWrite(7);
    let done = false;
    const p = c.waitConsistent().then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    c.ingest('/registry/configmaps/ns/a', 'PUT', cm('a'), 7);
    await p;
    expect(done).toBe(true);
    c.stop();
  });
});
