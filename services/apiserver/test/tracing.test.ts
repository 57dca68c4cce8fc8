// Tracing through the apiserver: a component's CLIENT span → the apiserver's
// gRPC SERVER span → storage child spans, and the created object recording
// the request's trace context in kubelab.io/traceparent; the watch cache's
// processing of a sampled write as a CONSUMER span under its KV span when it
// hands the write on (a watch of its resource is open), none otherwise; off =
// no spans and no annotation (REST request span names:
// src/tracing/request.test.ts). Every tracer here uses the sync context manager, as the
// apiserver process does: the request context must reach the registry and
// storage explicitly (vitest runs each file in its own process).

import type { KubeObject } from '@kubelab/api';
import type { ResourceServiceClient } from '@kubelab/proto';
import { requireTool, waitFor } from '@kubelab/testing';
import { grpcClientInterceptors, TRACEPARENT_ANNOTATION, type Tracing } from '@kubelab/tracing';
import { setupTestTracing, summarizeSpan, type TestTracing } from '@kubelab/tracing/testing';
import { installedContextPropagation } from '@kubelab/tracing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { announceListening, natsAuthOptions, TRACE_NATS_IDENTITY } from '@kubelab/nats';
import { decodeApiWriteRecord, type ApiWriteRecord } from '@kubelab/proto/api-record';
import { api, gvr, openWatch, startTestCluster, type TestCluster } from '../src/testing/index.js';

const PODS = gvr('pods');
const CONFIGMAPS = gvr('configmaps');
const EVENTS = gvr('events');
const pod = (name: string, annotations?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
});

const SYNC = { contextPropagation: 'sync' } as const;

/** Waits (bounded) until the apiserver exported `n` CONSUMER spans: the watch cache processes a write just after it is acknowledged. */
async function consumed(t: TestTracing, n: number) {
  const consumers = () => t.spans().filter((s) => s.kind === 4 /* CONSUMER */);
  // Fewer after 2 s: the callers' assertions report it.
  await waitFor(`${n} CONSUMER spans`, () => consumers().length >= n, { timeoutMs: 2_000, everyMs: 10 }).catch(() => undefined);
  return consumers();
}

/** A watch of every `resource` object (as the scheduler's and kubelets' watches of pods), open once it delivered a marker object created now. */
async function watchAll(c: TestCluster, resource: typeof PODS, marker: KubeObject) {
  const w = openWatch(c.client(), { resource, resourceVersion: '0' });
  await api(c.client()).create(resource, 'default', marker);
  await w.until((evs) => evs.some((e) => e.object.metadata.name === marker.metadata.name));
  return w;
}

const event = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'traced-1' },
  reason: 'Started',
  message: 'Started container c',
  type: 'Normal',
  source: { component: 'kubelet' },
});

function tracedClient(c: TestCluster, tracing: Tracing): ResourceServiceClient {
  return c.client({ interceptors: grpcClientInterceptors(tracing) });
}

describe.runIf(requireTool('nats-server'))('apiserver tracing on', () => {
  let c: TestCluster;
  let apiserver: TestTracing;
  let scheduler: TestTracing;
  let client: ResourceServiceClient;
  beforeAll(async () => {
    // As in the compose tracing profile: the apiserver samples every root.
    apiserver = setupTestTracing('apiserver', SYNC);
    scheduler = setupTestTracing('kube-scheduler', SYNC);
    expect(installedContextPropagation()).toBe('sync');
    c = await startTestCluster({ tracing: apiserver.tracing });
    client = tracedClient(c, scheduler.tracing);
    await watchAll(c, PODS, pod('watched'));
    apiserver.reset();
  });
  afterEach(() => {
    apiserver.reset();
    scheduler.reset();
  });
  afterAll(async () => {
    client?.close();
    await c?.cleanup();
  });

  it('a pod create is a SERVER span under the caller, with its storage span, and the pod records the trace', async () => {
    const k = api(client);
    const created = await scheduler.tracing.withSpan('create pod', () => k.create<KubeObject>(PODS, 'default', pod('traced-1')));
    const caller = scheduler
      .spans()
      .map(summarizeSpan)
      .find((s) => s.kind === 'CLIENT')!;
    expect(caller.name).toBe('kubelab.apiserver.v1.ResourceService/Create');
    const [consumer] = await consumed(apiserver, 1);
    const server = apiserver
      .spans()
      .map(summarizeSpan)
      .filter((s) => s.traceId === caller.traceId && s.kind !== 'CONSUMER');
    const serverSpan = server.find((s) => s.kind === 'SERVER')!;
    expect(server).toEqual([
      { name: 'KV create', kind: 'CLIENT', service: 'apiserver', traceId: caller.traceId, spanId: expect.any(String), parentSpanId: serverSpan.spanId, status: 'UNSET' },
      { name: 'kubelab.apiserver.v1.ResourceService/Create', kind: 'SERVER', service: 'apiserver', traceId: caller.traceId, spanId: serverSpan.spanId, parentSpanId: caller.spanId, status: 'UNSET' },
    ]);
    const kvSpan = apiserver.spans().find((s) => s.name === 'KV create')!;
    expect(kvSpan.attributes).toMatchObject({
      key: '/registry/pods/default/traced-1',
      'db.operation.name': 'create',
      'db.namespace': 'kubelab',
      'kv.revision': Number(created.metadata.resourceVersion),
    });
    // The write's message carried the KV span's context: the watch cache's processing of it is its child.
    expect(summarizeSpan(consumer!)).toEqual({
      name: 'process $KV.kubelab.>',
      kind: 'CONSUMER',
      service: 'apiserver',
      traceId: caller.traceId,
      spanId: expect.any(String),
      parentSpanId: kvSpan.spanContext().spanId,
      status: 'UNSET',
    });
    expect(consumer!.attributes).toEqual({
      'messaging.system': 'nats',
      'messaging.destination.name': '$KV.kubelab./registry/pods/default/traced-1',
      'messaging.destination.template': '$KV.kubelab.>',
      'messaging.operation.name': 'process',
      'messaging.operation.type': 'process',
      'messaging.message.body.size': expect.any(Number),
      key: '/registry/pods/default/traced-1',
      'kv.revision': Number(created.metadata.resourceVersion),
    });

    const want = `00-${caller.traceId}-${serverSpan.spanId}-01`;
    expect(created.metadata.annotations).toEqual({ [TRACEPARENT_ANNOTATION]: want });
    expect((await api(c.client()).get<KubeObject>(PODS, 'default', 'traced-1')).metadata.annotations).toEqual({ [TRACEPARENT_ANNOTATION]: want });
  });

  it('bind and delete write through KV update / KV delete spans; a lost create is AlreadyExists, not a storage error', async () => {
    const k = api(client);
    await k.create(PODS, 'default', pod('traced-2'));
    await consumed(apiserver, 1);
    scheduler.reset();
    apiserver.reset();
    await scheduler.tracing.withSpan('bind', () => k.bind('default', 'traced-2', 'node-1'));
    await scheduler.tracing.withSpan('delete', () => k.delete(PODS, 'default', 'traced-2', { gracePeriodSeconds: 0 }));
    await scheduler.tracing.withSpan('dup', () => k.create(PODS, 'default', pod('traced-1')).catch(() => undefined));
    // Two writes (bind, delete), each processed by the watch cache under its KV span; the lost create wrote nothing.
    const consumers = await consumed(apiserver, 2);
    const byParent = new Map(apiserver.spans().map((s) => [s.spanContext().spanId, s.name]));
    expect(consumers.map((s) => [s.name, byParent.get(s.parentSpanContext!.spanId)])).toEqual([
      ['process $KV.kubelab.>', 'KV update'],
      ['process $KV.kubelab.>', 'KV delete'],
    ]);
    expect(
      apiserver
        .spans()
        .filter((s) => s.name.startsWith('KV '))
        .map((s) => {
          const x = summarizeSpan(s);
          return [x.name, byParent.get(x.parentSpanId!), x.status, s.attributes['kv.conflict']];
        }),
    ).toEqual([
      ['KV update', 'kubelab.apiserver.v1.ResourceService/Bind', 'UNSET', undefined],
      ['KV delete', 'kubelab.apiserver.v1.ResourceService/Delete', 'UNSET', undefined],
      ['KV create', 'kubelab.apiserver.v1.ResourceService/Create', 'UNSET', 'exists'],
    ]);
    // AlreadyExists is the client's mistake: not an error of the server span either.
    expect(
      apiserver
        .spans()
        .filter((s) => s.kind === 1 /* SERVER */)
        .map((s) => summarizeSpan(s).status),
    ).toEqual(['UNSET', 'UNSET', 'UNSET']);
  });

  it('REST: a POST continuing a traceparent header is the parent of its KV span and of the recorded annotation', async () => {
    const rc = await startTestCluster({ tracing: apiserver.tracing, rest: true });
    try {
      await watchAll(rc, PODS, pod('watched'));
      apiserver.reset();
      const body = JSON.stringify(pod('rest-traced'));
      const res = await rc.rest('/api/v1/namespaces/default/pods', {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
        body,
      });
      const answer = { status: res.status, json: JSON.parse(res.body) as KubeObject };
      expect(answer.status).toBe(201);
      await consumed(apiserver, 1);
      // The span ends when the server has handed the answer to TLS, which may be after the client read it.
      await waitFor('the REST SERVER span', () => apiserver.spans().some((s) => summarizeSpan(s).kind === 'SERVER'), { timeoutMs: 2_000, everyMs: 10 });
      const spans = apiserver
        .spans()
        .map(summarizeSpan)
        .filter((s) => s.traceId === '4bf92f3577b34da6a3ce929d0e0e4736');
      const rest = spans.find((s) => s.kind === 'SERVER')!;
      const kv = spans.find((s) => s.name === 'KV create')!;
      expect(rest).toMatchObject({ name: 'POST /api/v1/namespaces/{:namespace}/pods', parentSpanId: '00f067aa0ba902b7' });
      expect(kv).toMatchObject({ kind: 'CLIENT', parentSpanId: rest.spanId });
      expect(spans.find((s) => s.kind === 'CONSUMER')).toMatchObject({ name: 'process $KV.kubelab.>', parentSpanId: kv.spanId });
      expect(answer.json.metadata.annotations).toEqual({ [TRACEPARENT_ANNOTATION]: `00-4bf92f3577b34da6a3ce929d0e0e4736-${rest.spanId}-01` });
    } finally {
      await rc.cleanup();
    }
  });

  it('a write no watch receives (an Event) has its SERVER and KV spans but no CONSUMER span; once events are watched it has one', async () => {
    const k = api(client);
    await scheduler.tracing.withSpan('event', () => k.create(EVENTS, 'default', event('unwatched')));
    await waitFor('the KV create span', () => (apiserver.spans().some((s) => s.name === 'KV create') ? true : undefined), { timeoutMs: 2_000, everyMs: 10 });
    expect(apiserver.spans().map((s) => s.name)).toContain('kubelab.apiserver.v1.ResourceService/Create');
    expect(await consumed(apiserver, 1)).toEqual([]);
    await watchAll(c, EVENTS, event('marker'));
    apiserver.reset();
    await scheduler.tracing.withSpan('event', () => k.create(EVENTS, 'default', event('watched-2')));
    const [consumer] = await consumed(apiserver, 1);
    expect(consumer!.attributes).toMatchObject({ key: '/registry/events/default/watched-2' });
    expect(consumer!.parentSpanContext!.spanId).toBe(
      apiserver
        .spans()
        .find((s) => s.name === 'KV create')!
        .spanContext().spanId,
    );
  });

  it('an unsampled caller gets an unsampled annotation (flag 00) in its own trace and no exported spans', async () => {
    const quiet = setupTestTracing('kube-scheduler', { samplingRatePerMillion: 0, ...SYNC });
    const c2 = tracedClient(c, quiet.tracing);
    try {
      let traceId = '';
      const created = await quiet.tracing.withSpan('create pod', (span) => {
        traceId = span.spanContext().traceId;
        return api(c2).create<KubeObject>(PODS, 'default', pod('unsampled'));
      });
      expect(created.metadata.annotations?.[TRACEPARENT_ANNOTATION]).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
      expect(apiserver.spans()).toEqual([]);
    } finally {
      c2.close();
    }
  });
});

describe.runIf(requireTool('nats-server'))('apiserver tracing off', () => {
  let c: TestCluster;
  let spy: TestTracing;
  let caller: TestTracing;
  beforeAll(async () => {
    // Says "off" but would record if anything touched its tracer.
    spy = setupTestTracing('apiserver', SYNC);
    caller = setupTestTracing('kube-scheduler', SYNC);
    c = await startTestCluster({ tracing: { ...spy.tracing, enabled: false } });
  });
  afterAll(async () => {
    await c?.cleanup();
  });

  it("a sampled caller gets no server or storage spans; the pod's annotation continues the caller's trace (a span of its own, flag kept)", async () => {
    const client = tracedClient(c, caller.tracing);
    try {
      const created = await caller.tracing.withSpan('create pod', () => api(client).create<KubeObject>(PODS, 'default', pod('untraced')));
      expect(caller.spans().map((s) => s.name)).toEqual(['kubelab.apiserver.v1.ResourceService/Create', 'create pod']);
      const [createSpan] = caller.spans();
      const tp = created.metadata.annotations?.[TRACEPARENT_ANNOTATION] ?? '';
      expect(tp).toMatch(new RegExp(`^00-${createSpan!.spanContext().traceId}-[0-9a-f]{16}-01$`));
      expect(tp).not.toContain(createSpan!.spanContext().spanId);
      expect(spy.spans()).toEqual([]);
    } finally {
      client.close();
    }
  });

  it('publishes no write record while no reader listens, and records from the moment one says it listens', async () => {
    const nc = await connect({ servers: c.nats.url, ...natsAuthOptions(TRACE_NATS_IDENTITY, await c.nats.clientTls(TRACE_NATS_IDENTITY)) });
    const client = c.client();
    try {
      const sub = nc.subscribe('kubelab.api.create.configmaps');
      await nc.flush();
      const first = (async () => {
        for await (const m of sub) return decodeApiWriteRecord(m.string())?.name;
        return undefined;
      })();
      await api(client).create<KubeObject>(CONFIGMAPS, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unheard' } });
      expect(await announceListening(nc, ['api']).ready).toBe(true);
      await api(client).create<KubeObject>(CONFIGMAPS, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'heard' } });
      // One connection publishes in order: had the first create been recorded, its record would come first.
      expect(await first).toBe('heard');
    } finally {
      client.close();
      await nc.close();
    }
  });

  it('publishes a record of each write on kubelab.api.<verb>.<resource>, readable by the trace identity: who asked, the object, code, duration, trace', async () => {
    const nc = await connect({ servers: c.nats.url, ...natsAuthOptions(TRACE_NATS_IDENTITY, await c.nats.clientTls(TRACE_NATS_IDENTITY)) });
    try {
      const sub = nc.subscribe('kubelab.api.>');
      // The apiserver records only while a reader listens: this one says so first.
      const listening = announceListening(nc, ['api']);
      expect(await listening.ready).toBe(true);
      const got: (ApiWriteRecord & { subject: string })[] = [];
      const done = (async () => {
        for await (const m of sub) {
          // The watch delivery records share the subject tree (the next test).
          if (m.subject.startsWith('kubelab.api.watch.')) continue;
          got.push({ ...(decodeApiWriteRecord(m.string()) as ApiWriteRecord), subject: m.subject });
          if (got.length === 3) break;
        }
      })();
      const client = c.client();
      try {
        const created = await api(client).create<KubeObject>(PODS, 'default', pod('recorded'));
        await expect(api(client).create<KubeObject>(PODS, 'default', pod('recorded'))).rejects.toThrow(/already exists/);
        await api(client).delete(PODS, 'default', 'recorded');
        await done;
        const tp = created.metadata.annotations?.[TRACEPARENT_ANNOTATION] ?? '';
        expect(got.map((r) => [r.subject, r.verb, r.namespace, r.name, r.code])).toEqual([
          ['kubelab.api.create.pods', 'create', 'default', 'recorded', 201],
          ['kubelab.api.create.pods', 'create', 'default', 'recorded', 409],
          ['kubelab.api.delete.pods', 'delete', 'default', 'recorded', 200],
        ]);
        expect(got[0]).toMatchObject({ group: '', version: 'v1', resource: 'pods', user: expect.any(String), traceId: tp.slice(3, 35), spanId: tp.slice(36, 52) });
        expect(got[0]!.durationMs).toBeGreaterThan(0);
        expect(Date.parse(got[0]!.time)).not.toBeNaN();
      } finally {
        client.close();
      }
    } finally {
      await nc.close();
    }
  });
  it('publishes what each gRPC watch delivers to whom, summed per 100 ms on kubelab.api.watch.<resource>; write-record readers pass it by', async () => {
    const nc = await connect({ servers: c.nats.url, ...natsAuthOptions(TRACE_NATS_IDENTITY, await c.nats.clientTls(TRACE_NATS_IDENTITY)) });
    const watcher = c.client();
    // Only this pod: the pods earlier tests left would be delivered (ADDED) in the same window.
    const w = openWatch(watcher, { resource: PODS, namespace: 'default', resourceVersion: '0', allowBatch: true, fieldSelector: 'metadata.name=delivered' });
    try {
      const sub = nc.subscribe('kubelab.api.watch.pods');
      const listening = announceListening(nc, ['api']);
      expect(await listening.ready).toBe(true);
      const got = (async () => {
        for await (const m of sub) {
          const rec = JSON.parse(m.string()) as {
            kind: string;
            time: string;
            windowMs: number;
            resource: string;
            deliveries: { user: string; type: string; count: number; objects: string[]; offsetsMs: number[] }[];
          };
          const d = rec.deliveries.find((x) => x.type === 'ADDED' && x.objects.includes('default/delivered'));
          if (d) return { rec, d, raw: m.string() };
        }
        return undefined;
      })();
      await api(watcher).create<KubeObject>(PODS, 'default', pod('delivered'));
      await w.until((evs) => evs.some((e) => e.type === 'ADDED' && e.object.metadata?.name === 'delivered'));
      const { rec, d, raw } = (await got)!;
      expect(rec).toMatchObject({ kind: 'WatchDeliveries', windowMs: 100, resource: 'pods' });
      expect(d).toMatchObject({ type: 'ADDED', count: 1, objects: ['default/delivered'], user: expect.any(String) });
      expect(Date.parse(rec.time) + d.offsetsMs[0]!).toBeLessThanOrEqual(Date.now());
      expect(decodeApiWriteRecord(raw)).toBeUndefined();
      await api(watcher).delete(PODS, 'default', 'delivered');
    } finally {
      w.close();
      watcher.close();
      await nc.close();
    }
  });
});
