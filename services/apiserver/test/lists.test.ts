// Lists and watches with upstream semantics over REST (and gRPC where it
// applies): continue pages are one snapshot, 410 with the inconsistent token
// once it left the window, remainingItemCount, resourceVersionMatch, field
// label conversion, the watch-list's end bookmark, and slow watchers closed
// with memory staying bounded.

import { request } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import type { KubeObject } from '@kubelab/api';
import { api, gvr, rpcError, startTestCluster, type TestCluster } from '../src/testing/index.js';

const CMS = gvr('configmaps');
const NS = gvr('namespaces');

interface ListBody {
  kind: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: KubeObject[];
}

const CONTINUE_TOO_OLD =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** A REST GET as the admin, its body parsed. */
async function getJson<T = ListBody>(c: TestCluster, path: string): Promise<{ status: number; body: T }> {
  const r = await c.rest(path);
  return { status: r.status, body: JSON.parse(r.body) as T };
}

const names = (l: ListBody) => l.items.map((o) => o.metadata.name);

/** A streaming REST request as the admin: the response as it arrives (not read until the caller reads it). */
function openStream(c: TestCluster, path: string): Promise<IncomingMessage> {
  const tls = c.clientConfig.tls;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: c.apiserver.restPort, path, ca: tls.caPem, cert: tls.certPem, key: tls.keyPem, agent: false }, resolve);
    req.on('error', reject);
    req.end();
  });
}

/** Reads a watch response to its end: one event per line. */
async function readEvents(res: IncomingMessage): Promise<Array<{ type: string; object: KubeObject }>> {
  let text = '';
  for await (const chunk of res) text += (chunk as Buffer).toString('utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { type: string; object: KubeObject });
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.runIf(requireTool('nats-server'))('lists with upstream semantics (REST)', () => {
  let c: TestCluster;
  let k: ReturnType<typeof api>;
  beforeAll(async () => {
    // A small event window, so a snapshot can be outlived within a test.
    c = await startTestCluster({ rest: true, watchCacheSize: 40 });
    k = api(c.client());
  });
  afterAll(async () => {
    await c?.cleanup();
  });

  it('serves every continue page from the first page’s snapshot, with remainingItemCount', async () => {
    await k.create(NS, '', { metadata: { name: 'pg' } });
    for (let i = 0; i < 5; i++) await k.create(CMS, 'pg', { metadata: { name: `p${i}`, labels: { app: 'x' } } });
    const first = await getJson(c, '/api/v1/namespaces/pg/configmaps?limit=2');
    expect(first.status).toBe(200);
    expect(names(first.body)).toEqual(['p0', 'p1']);
    expect(first.body.metadata.remainingItemCount).toBe(3);
    const rv = first.body.metadata.resourceVersion;
    // Changes between the pages do not show: p3 stays, p5 does not appear, p2 keeps its old data.
    await k.delete(CMS, 'pg', 'p3');
    await k.create(CMS, 'pg', { metadata: { name: 'p5' } });
    await k.patch(CMS, 'pg', 'p2', { data: { changed: 'yes' } });
    const second = await getJson(c, `/api/v1/namespaces/pg/configmaps?limit=2&continue=${first.body.metadata.continue}`);
    expect(second.status).toBe(200);
    expect(names(second.body)).toEqual(['p2', 'p3']);
    expect((second.body.items[0] as KubeObject & { data?: unknown }).data).toBeUndefined();
    expect(second.body.metadata).toMatchObject({ resourceVersion: rv, remainingItemCount: 1 });
    const third = await getJson(c, `/api/v1/namespaces/pg/configmaps?limit=2&continue=${second.body.metadata.continue}`);
    expect(names(third.body)).toEqual(['p4']);
    expect(third.body.metadata).toEqual({ resourceVersion: rv });
    // With a selector the count is unknown (upstream sets it only without one).
    const selected = await getJson(c, '/api/v1/namespaces/pg/configmaps?limit=1&labelSelector=app%3Dx');
    expect(selected.body.metadata.continue).toBeTruthy();
    expect(selected.body.metadata.remainingItemCount).toBeUndefined();
  });

  it('answers 410 with the inconsistent-continue token once the snapshot left the window', async () => {
    await k.create(NS, '', { metadata: { name: 'old' } });
    for (let i = 0; i < 3; i++) await k.create(CMS, 'old', { metadata: { name: `o${i}` } });
    const first = await getJson(c, '/api/v1/namespaces/old/configmaps?limit=1');
    expect(names(first.body)).toEqual(['o0']);
    await k.create(CMS, 'old', { metadata: { name: 'o3' } });
    // More writes than the window holds.
    for (let i = 0; i < 45; i++) await k.patch(CMS, 'old', 'o0', { data: { i: String(i) } });
    const gone = await getJson<{ code: number; reason: string; message: string; metadata: { continue?: string } }>(
      c,
      `/api/v1/namespaces/old/configmaps?limit=1&continue=${first.body.metadata.continue}`,
    );
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410, message: CONTINUE_TOO_OLD });
    expect(gone.body.metadata.continue).toBeTruthy();
    // The token in the 410 continues at the newest state: o3, created after the first page, shows up.
    const rest = await getJson(c, `/api/v1/namespaces/old/configmaps?continue=${gone.body.metadata.continue}`);
    expect(rest.status).toBe(200);
    expect(names(rest.body)).toEqual(['o1', 'o2', 'o3']);
    expect(Number(rest.body.metadata.resourceVersion)).toBeGreaterThan(Number(first.body.metadata.resourceVersion));
    // A token that is not one is a 400.
    const bad = await getJson<{ code: number; message: string }>(c, '/api/v1/namespaces/old/configmaps?continue=bm90LWEtdG9rZW4');
    expect(bad.body).toMatchObject({ code: 400, message: 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)' });
  });

  it('lists at exactly a resourceVersion with resourceVersionMatch=Exact, and validates the match', async () => {
    await k.create(NS, '', { metadata: { name: 'ex' } });
    const v1 = await k.create(CMS, 'ex', { metadata: { name: 'e' }, data: { v: '1' } });
    await k.patch(CMS, 'ex', 'e', { data: { v: '2' } });
    const exact = await getJson(c, `/api/v1/namespaces/ex/configmaps?resourceVersion=${v1.metadata.resourceVersion}&resourceVersionMatch=Exact`);
    expect(exact.body.metadata.resourceVersion).toBe(v1.metadata.resourceVersion);
    expect(exact.body.items.map((o) => (o as KubeObject & { data: { v: string } }).data.v)).toEqual(['1']);
    const newer = await getJson(c, `/api/v1/namespaces/ex/configmaps?resourceVersion=${v1.metadata.resourceVersion}&resourceVersionMatch=NotOlderThan`);
    expect(newer.body.items.map((o) => (o as KubeObject & { data: { v: string } }).data.v)).toEqual(['2']);
    expect(Number(newer.body.metadata.resourceVersion)).toBeGreaterThan(Number(v1.metadata.resourceVersion));

    const noRv = await getJson<{ code: number; reason: string; message: string; details: unknown }>(c, '/api/v1/namespaces/ex/configmaps?resourceVersionMatch=Exact');
    expect(noRv.status).toBe(422);
    expect(noRv.body).toMatchObject({
      reason: 'Invalid',
      message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      details: { group: 'meta.k8s.io', kind: 'ListOptions', causes: [{ reason: 'FieldValueForbidden', field: 'resourceVersionMatch' }] },
    });
    const atZero = await getJson<{ message: string }>(c, '/api/v1/namespaces/ex/configmaps?resourceVersion=0&resourceVersionMatch=Exact');
    expect(atZero.body.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
    const tooOld = await getJson<{ code: number; reason: string; message: string }>(c, '/api/v1/namespaces/ex/configmaps?resourceVersion=1&resourceVersionMatch=Exact');
    expect(tooOld.body).toMatchObject({ code: 410, reason: 'Expired', message: 'The resourceVersion for the provided list is too old.' });
  });

  it('refuses a field selector the kind does not support with 400 in the kind’s words', async () => {
    const pods = await getJson<{ code: number; reason: string; message: string }>(c, '/api/v1/pods?fieldSelector=spec.foo%3Dbar');
    expect(pods.status).toBe(400);
    expect(pods.body).toMatchObject({ reason: 'BadRequest', message: 'field label not supported: spec.foo' });
    const cms = await getJson<{ message: string }>(c, '/api/v1/configmaps?fieldSelector=spec.foo%3Dbar');
    expect(cms.body.message).toBe('"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"');
    expect((await c.rest('/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-1')).status).toBe(200);
    // gRPC lists and watches convert the same way.
    const e = await rpcError(k.list(gvr('pods'), '', { fieldSelector: 'spec.foo=bar' }));
    expect(e.status).toMatchObject({ code: 400, message: 'field label not supported: spec.foo' });
  });

  it('ends a watch-list’s initial events with the annotated bookmark', async () => {
    await k.create(NS, '', { metadata: { name: 'wl' } });
    await k.create(CMS, 'wl', { metadata: { name: 'a' } });
    const last = await k.create(CMS, 'wl', { metadata: { name: 'b' } });
    const res = await openStream(c, '/api/v1/namespaces/wl/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1');
    expect(res.statusCode).toBe(200);
    const events = await readEvents(res);
    expect(events.slice(0, 2).map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED a', 'ADDED b']);
    const end = events[2]!;
    expect(end.type).toBe('BOOKMARK');
    expect(end.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } });
    expect(Number(end.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(last.metadata.resourceVersion));

    const invalid = await getJson<{ code: number; message: string }>(c, '/api/v1/namespaces/wl/configmaps?watch=1&sendInitialEvents=true');
    expect(invalid.body).toMatchObject({
      code: 422,
      message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    });
    const onList = await getJson<{ code: number; message: string }>(c, '/api/v1/namespaces/wl/configmaps?sendInitialEvents=true');
    expect(onList.body).toMatchObject({ code: 422, message: 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list' });
  });
});

describe.runIf(requireTool('nats-server'))('watchers that do not read', () => {
  let c: TestCluster;
  let k: ReturnType<typeof api>;
  beforeAll(async () => {
    c = await startTestCluster({ rest: true, watchCacheSize: 100, watcherBufferSize: 50 });
    k = api(c.client());
  });
  afterAll(async () => {
    await c?.cleanup();
  });

  /** Heap and buffers in use after a full collection (gc exposed at run time: the test runs in the apiserver's process). */
  const memoryAfterGc = (): number => {
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };

  it('closes REST and gRPC watches whose clients never read, and memory stays bounded', async () => {
    await k.create(NS, '', { metadata: { name: 'slow' } });
    await k.create(CMS, 'slow', { metadata: { name: 'big' }, data: { v: '' } });
    const baseline = c.apiserver.cache.watcherTotal;
    const before = memoryAfterGc();
    // Five REST watches paused before reading a byte, one gRPC watch paused likewise.
    const rest = await Promise.all(Array.from({ length: 5 }, () => openStream(c, '/api/v1/namespaces/slow/configmaps?watch=1&resourceVersion=0')));
    for (const r of rest) r.pause();
    const grpcWatch = (c.client() as unknown as { Watch(r: unknown): NodeJS.ReadableStream }).Watch({ resource: CMS, namespace: 'slow', resourceVersion: '0' });
    let grpcError: { code: number } | undefined;
    grpcWatch.on('error', (e: { code: number }) => (grpcError = e));
    // It reads its first event, then stops reading (a grpc-js stream never read at all buffers on the client instead).
    grpcWatch.once('data', () => grpcWatch.pause());
    await until(() => c.apiserver.cache.watcherTotal === baseline + 6, 5_000);

    // 20 KB per update: unread, 1,500 of them would be about 30 MB per watch.
    const filler = 'x'.repeat(20 * 1024);
    for (let i = 0; i < 1_500; i++) await k.patch(CMS, 'slow', 'big', { data: { v: `${i}${filler}` } });

    // Every watcher fell more than its buffer behind and was closed.
    await until(() => c.apiserver.cache.watcherTotal === baseline, 10_000);
    const grown = memoryAfterGc() - before;
    // Unbounded (every event buffered for the socket) this grows by about 165 MB; bounded, by about 25 MB (the window and sockets).
    expect(grown).toBeLessThan(64 * 1024 * 1024);

    // Resumed, the REST clients read what reached their socket, then the end of the stream.
    const seen = await Promise.all(
      rest.map(
        (r) =>
          new Promise<number>((resolve) => {
            let bytes = 0;
            r.on('data', (d: Buffer) => (bytes += d.length));
            r.on('close', () => resolve(bytes));
            r.resume();
          }),
      ),
    );
    for (const bytes of seen) expect(bytes).toBeLessThan(1_500 * 20 * 1024);
    // The gRPC stream was reset (CANCELLED) rather than left open.
    grpcWatch.resume();
    await until(() => grpcError !== undefined, 5_000);
    expect(grpcError!.code).toBe(1);
  }, 120_000);
});
