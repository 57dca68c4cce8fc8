// Trace context through the clientset: interceptors make a CLIENT span per
// call whose parent is the caller's context (per call, or the active one),
// and the server sees that span's traceparent.
import * as grpc from '@grpc/grpc-js';
import type { Pod } from '@kubelab/api';
import { apiserverProto, type ResourceServiceHandlers } from '@kubelab/proto';
import { contextFromObject, grpcClientInterceptors, TRACEPARENT_ANNOTATION } from '@kubelab/tracing';
import { setupTestTracing, summarizeSpan } from '@kubelab/tracing/testing';
import { waitFor } from '@kubelab/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createClientset, type ClientsetConfig } from '../clientset/clientset.js';
import { clientsetEventSink, EventBroadcaster } from '../events/recorder.js';

const POD = Buffer.from('{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"default"}}');
const servers: grpc.Server[] = [];
const closers: Array<() => void> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) c();
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.tryShutdown(() => r()))));
});

/** A ResourceService answering Get/Bind/Watch/Create/CreateStream that remembers each call's traceparent. */
async function stub(seen: string[]): Promise<string> {
  const tp = (md: grpc.Metadata) => seen.push(String(md.get('traceparent')[0] ?? ''));
  const server = new grpc.Server();
  const handlers: Partial<ResourceServiceHandlers> = {
    Get: (call, cb) => {
      tp(call.metadata);
      cb(null, { json: POD });
    },
    Bind: (call, cb) => {
      tp(call.metadata);
      cb(null, {});
    },
    Watch: (call) => {
      tp(call.metadata);
      call.end();
    },
    Create: (call, cb) => {
      tp(call.metadata);
      cb(null, { json: POD });
    },
    CreateStream: (call) => {
      seen.push('CreateStream');
      call.on('data', (m: { items: { id: number; traceparent: string }[] }) => {
        for (const i of m.items) seen.push(`item ${i.traceparent}`);
        call.write({ results: m.items.map((i) => ({ id: i.id, code: 0, object: POD, status: Buffer.alloc(0) })) });
      });
      call.on('end', () => call.end());
    },
  };
  server.addService(apiserverProto().kubelab.apiserver.v1.ResourceService.service, handlers as ResourceServiceHandlers);
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
  servers.push(server);
  return `127.0.0.1:${port}`;
}

function clientset(config: ClientsetConfig) {
  const cs = createClientset(config);
  closers.push(() => cs.close());
  return cs;
}

const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('client tracing', () => {
  it('with interceptors: a CLIENT span per call, child of the active span, its traceparent on the wire', async () => {
    const seen: string[] = [];
    const t = setupTestTracing('kube-scheduler');
    const cs = clientset({ address: await stub(seen), interceptors: grpcClientInterceptors(t.tracing) });
    await t.tracing.withSpan('scheduleOne', () => cs.core.pods('default').get('web'));
    const [client, parent] = t.spans().map(summarizeSpan);
    expect(client).toMatchObject({ name: 'kubelab.apiserver.v1.ResourceService/Get', kind: 'CLIENT', traceId: parent!.traceId, parentSpanId: parent!.spanId, status: 'UNSET' });
    expect(seen).toEqual([`00-${client!.traceId}-${client!.spanId}-01`]);
  });

  it('per call: traceContext (e.g. from the pod annotation) or a traceparent string is the parent', async () => {
    const seen: string[] = [];
    const t = setupTestTracing('kube-scheduler');
    const cs = clientset({ address: await stub(seen), interceptors: grpcClientInterceptors(t.tracing) });
    const pod = { metadata: { annotations: { [TRACEPARENT_ANNOTATION]: PARENT } } };
    await cs.core.pods('default').bind({ metadata: { name: 'web' }, target: { kind: 'Node', name: 'node-1' } }, { traceContext: contextFromObject(pod) });
    await cs.core.pods('default').get('web', { traceparent: PARENT });
    const spans = t.spans().map(summarizeSpan);
    expect(spans.map((s) => [s.name, s.traceId, s.parentSpanId])).toEqual([
      ['kubelab.apiserver.v1.ResourceService/Bind', '4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7'],
      ['kubelab.apiserver.v1.ResourceService/Get', '4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7'],
    ]);
    // The binding travels on the CreateStream, its CLIENT span's traceparent with its item.
    const [bind, get] = spans.map((s) => `00-${s.traceId}-${s.spanId}-01`);
    expect(seen).toEqual(['CreateStream', `item ${bind}`, get]);
  });

  it('watches are traced too; the CLIENT span ends with the stream', async () => {
    const seen: string[] = [];
    const t = setupTestTracing('kubelet');
    const cs = clientset({ address: await stub(seen), interceptors: grpcClientInterceptors(t.tracing) });
    const w = cs.core.pods('default').watch({ traceparent: PARENT });
    for await (const _ of w) break;
    const [span] = t.spans().map(summarizeSpan);
    expect([span!.name, span!.traceId, span!.parentSpanId]).toEqual(['kubelab.apiserver.v1.ResourceService/Watch', '4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7']);
  });

  it('with interceptors: a create under a span travels on the CreateStream in its own CLIENT span, its traceparent on the item; one outside any (an event) has none', async () => {
    const seen: string[] = [];
    const t = setupTestTracing('kubelet', { samplingRatePerMillion: 0 });
    const cs = clientset({ address: await stub(seen), interceptors: grpcClientInterceptors(t.tracing) });
    const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' } };
    await cs.core.pods('default').create(pod, { traceparent: PARENT });
    await t.tracing.withSpan('sync', () => cs.core.pods('default').create(pod), { parent: contextFromObject({ metadata: { annotations: { [TRACEPARENT_ANNOTATION]: PARENT } } }) });
    await cs.core.pods('default').create(pod);
    await cs.core.pods('default').create(pod);
    const creates = t
      .spans()
      .map(summarizeSpan)
      .filter((s) => s.name.endsWith('/Create'));
    expect(creates.map((s) => [s.traceId, s.kind])).toEqual([
      ['4bf92f3577b34da6a3ce929d0e0e4736', 'CLIENT'],
      ['4bf92f3577b34da6a3ce929d0e0e4736', 'CLIENT'],
    ]);
    expect(seen).toEqual(['CreateStream', ...creates.map((s) => `item 00-${s.traceId}-${s.spanId}-01`), 'item ', 'item ']);
  });

  it("without tracing: the caller's traceparent travels on the item as given", async () => {
    const seen: string[] = [];
    const cs = clientset({ address: await stub(seen) });
    const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' } };
    const unsampled = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';
    await cs.core.pods('default').create(pod, { traceContext: contextFromObject({ metadata: { annotations: { [TRACEPARENT_ANNOTATION]: unsampled } } }) });
    await cs.core.pods('default').create(pod);
    expect(seen).toEqual(['CreateStream', `item ${unsampled}`, 'item ']);
  });

  it('an event recorded inside a traced sync is written by the broadcaster outside the trace, on the CreateStream', async () => {
    const seen: string[] = [];
    const t = setupTestTracing('kubelet');
    const cs = clientset({ address: await stub(seen), interceptors: grpcClientInterceptors(t.tracing) });
    const broadcaster = new EventBroadcaster({ sink: clientsetEventSink(cs) });
    broadcaster.startRecordingToSink();
    closers.push(() => broadcaster.shutdown());
    const recorder = broadcaster.newRecorder({ component: 'kubelet', host: 'node-1' });
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid: 'u1' } };
    await t.tracing.withSpan('syncPod', () => recorder.event(pod, 'Normal', 'Started', 'Started container app'), {
      parent: contextFromObject({ metadata: { annotations: { [TRACEPARENT_ANNOTATION]: PARENT } } }),
    });
    await waitFor('the event on the CreateStream', () => seen.includes('item '), { timeoutMs: 1_000, everyMs: 10 });
    expect(seen).toEqual(['CreateStream', 'item ']);
    expect(t.spans().map((s) => s.name)).toEqual(['syncPod']);
  });

  it('without interceptors: no spans; traceContext or traceparent travel as they are', async () => {
    const seen: string[] = [];
    const t = setupTestTracing('kube-scheduler');
    const cs = clientset({ address: await stub(seen) });
    await t.tracing.withSpan('sync', () => cs.core.pods('default').get('web'));
    await cs.core.pods('default').get('web', { traceContext: contextFromObject({ metadata: { annotations: { [TRACEPARENT_ANNOTATION]: PARENT } } }) });
    await cs.core.pods('default').get('web', { traceparent: PARENT });
    expect(seen).toEqual(['', PARENT, PARENT]);
    expect(t.spans().map((s) => s.name)).toEqual(['sync']);
  });
});
