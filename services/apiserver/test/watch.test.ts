// Watch semantics through gRPC: initial state, resume without gaps or
// duplicates, 410 for a revision older than the window, bookmarks,
// selector transitions and timeouts.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import { api, gvr, openWatch, startTestCluster, type TestCluster } from '../src/testing/index.js';

const CMS = gvr('configmaps');
const NS = gvr('namespaces');

describe.runIf(requireTool('nats-server'))('watch', () => {
  let c: TestCluster;
  let k: ReturnType<typeof api>;
  beforeAll(async () => {
    c = await startTestCluster({ bookmarkIntervalMs: 100, bookmarkFrequencyMs: 100 });
    k = api(c.client());
  });
  afterAll(async () => {
    await c?.cleanup();
  });

  it('rv "0" starts with ADDED for the current state, then follows', async () => {
    await k.create(NS, '', { metadata: { name: 'w0' } });
    await k.create(CMS, 'w0', { metadata: { name: 'a' } });
    await k.create(CMS, 'w0', { metadata: { name: 'b' } });
    const w = openWatch(c.client(), { resource: CMS, namespace: 'w0', resourceVersion: '0' });
    await w.until((e) => e.length >= 2);
    expect(w.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED a', 'ADDED b']);
    const upd = await k.patch(CMS, 'w0', 'a', { data: { x: '1' } });
    await k.delete(CMS, 'w0', 'b');
    await w.until((e) => e.length >= 4);
    expect(w.events.slice(2).map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['MODIFIED a', 'DELETED b']);
    expect(w.events[2]!.object.metadata.resourceVersion).toBe(upd.metadata.resourceVersion);
    // DELETED carries the last state stamped with the deletion revision.
    expect(Number(w.events[3]!.object.metadata.resourceVersion)).toBeGreaterThan(Number(upd.metadata.resourceVersion));
    w.close();
  });

  it('resumes from a resourceVersion without missed or duplicated events', async () => {
    await k.create(NS, '', { metadata: { name: 'w1' } });
    const start = await k.list(CMS, 'w1');
    const first = openWatch(c.client(), { resource: CMS, namespace: 'w1', resourceVersion: start.metadata.resourceVersion });
    const written: string[] = [];
    for (let i = 0; i < 30; i++) written.push((await k.create(CMS, 'w1', { metadata: { name: `o${i}` } })).metadata.resourceVersion!);
    await first.until((e) => e.length >= 30);
    first.close();
    const lastSeen = first.events[first.events.length - 1]!.object.metadata.resourceVersion!;
    // Writes while nobody watches.
    for (let i = 30; i < 60; i++) written.push((await k.patch(CMS, 'w1', `o${i - 30}`, { data: { i: String(i) } })).metadata.resourceVersion!);
    const second = openWatch(c.client(), { resource: CMS, namespace: 'w1', resourceVersion: lastSeen });
    await second.until((e) => e.length >= 30);
    const seen = [...first.events, ...second.events].map((e) => e.object.metadata.resourceVersion!);
    expect(seen).toEqual(written);
    expect(second.events.every((e) => e.type === 'MODIFIED')).toBe(true);
    second.close();
  });

  it('turns selector transitions into ADDED and DELETED', async () => {
    await k.create(NS, '', { metadata: { name: 'w2' } });
    const w = openWatch(c.client(), { resource: CMS, namespace: 'w2', labelSelector: 'app=x', resourceVersion: '0' });
    await k.create(CMS, 'w2', { metadata: { name: 'm', labels: { app: 'y' } } });
    await k.patch(CMS, 'w2', 'm', { metadata: { labels: { app: 'x' } } });
    await k.patch(CMS, 'w2', 'm', { data: { k: 'v' } });
    await k.patch(CMS, 'w2', 'm', { metadata: { labels: { app: 'z' } } });
    await k.delete(CMS, 'w2', 'm');
    await k.create(CMS, 'w2', { metadata: { name: 'n', labels: { app: 'x' } } });
    await w.until((e) => e.some((x) => x.object.metadata.name === 'n'));
    expect(w.events.map((e) => `${e.type} ${e.object.metadata.name} ${e.object.metadata.labels?.app}`)).toEqual(['ADDED m x', 'MODIFIED m x', 'DELETED m x', 'ADDED n x']);
    w.close();
  });

  it('sends BOOKMARKs with the current revision to idle watchers that asked', async () => {
    const w = openWatch(c.client(), { resource: CMS, namespace: 'w0', labelSelector: 'never=seen', resourceVersion: '0', allowWatchBookmarks: true });
    // The watch dials a new TLS connection and may start after a write (then that write is not news to it): write until a bookmark covers one (bounded).
    const covered = (rv: number) => (e: typeof w.events) => e.some((x) => x.type === 'BOOKMARK' && Number(x.object.metadata.resourceVersion) >= rv);
    let rv = 0;
    for (let i = 0; i < 10 && !covered(rv || Infinity)(w.events); i++) {
      rv = Number((await k.create(CMS, 'w0', { metadata: { name: `bm-${i}` } })).metadata.resourceVersion);
      await w.until(covered(rv), 1_000).catch(() => undefined);
    }
    expect(covered(rv)(w.events)).toBe(true);
    const bm = w.events.find((x) => x.type === 'BOOKMARK')!;
    expect(bm.object).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
    w.close();
  });

  it('ends the stream after timeoutSeconds', async () => {
    const w = openWatch(c.client(), { resource: CMS, namespace: 'w0', resourceVersion: '0', timeoutSeconds: 1 });
    const t0 = Date.now();
    await w.until(() => w.ended, 5_000).catch(() => undefined);
    expect(w.ended).toBe(true);
    expect(w.error).toBeUndefined();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
  });
});

describe.runIf(requireTool('nats-server'))('watch window', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startTestCluster({ watchCacheSize: 5 });
  });
  afterAll(async () => {
    await c?.cleanup();
  });

  it('answers a resourceVersion older than the window with 410 Expired', async () => {
    const k = api(c.client());
    const first = await k.create(CMS, 'default', { metadata: { name: 'old' } });
    for (let i = 0; i < 10; i++) await k.patch(CMS, 'default', 'old', { data: { i: String(i) } });
    const w = openWatch(c.client(), { resource: CMS, namespace: 'default', resourceVersion: first.metadata.resourceVersion });
    await w.until((e) => e.length >= 1);
    expect(w.events[0]!.type).toBe('ERROR');
    expect(w.events[0]!.object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
    expect(String(w.events[0]!.object.message)).toMatch(new RegExp(`^too old resource version: ${first.metadata.resourceVersion} \\(\\d+\\)$`));
    await w.until(() => w.ended);
  });
});
