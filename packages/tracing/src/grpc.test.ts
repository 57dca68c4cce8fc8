import * as grpc from '@grpc/grpc-js';
import { ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { callTracedUnary, grpcClientInterceptors, traceServerHandlers, tracingOfInterceptors, type UnaryMethod } from './grpc.js';
import { setupTracing, type Tracing } from './setup.js';
import { setupTestTracing, summarizeSpan, type TestTracing } from './testing.js';

// A CRI-shaped service with JSON payloads: the span names come from the paths.
const json = { serialize: (v: unknown) => Buffer.from(JSON.stringify(v)), deserialize: (b: Buffer) => JSON.parse(b.toString()) as unknown };
const method = (path: string, responseStream = false) => ({
  path,
  requestStream: false,
  responseStream,
  requestSerialize: json.serialize,
  requestDeserialize: json.deserialize,
  responseSerialize: json.serialize,
  responseDeserialize: json.deserialize,
});
const service: grpc.ServiceDefinition = {
  RunPodSandbox: method('/runtime.v1.RuntimeService/RunPodSandbox'),
  ContainerStatus: method('/runtime.v1.RuntimeService/ContainerStatus'),
  Watch: method('/kubelab.api.v1.API/Watch', true),
};
const Client = grpc.makeGenericClientConstructor(service, 'RuntimeService');
type Unary = (req: unknown, md: grpc.Metadata, cb: (err: grpc.ServiceError | null, res?: unknown) => void) => void;

interface Rig {
  client: grpc.Client;
  seen: { traceparent?: string; activeSpanId?: string }[];
  call(name: 'RunPodSandbox' | 'ContainerStatus', req: unknown): Promise<unknown>;
  watch(): Promise<unknown[]>;
  close(): Promise<void>;
}

async function rig(clientSide: Tracing, serverSide: Tracing): Promise<Rig> {
  const seen: Rig['seen'] = [];
  const note = (md: grpc.Metadata) => {
    const tp = md.get('traceparent')[0];
    const active = trace.getActiveSpan()?.spanContext().spanId;
    seen.push({ ...(typeof tp === 'string' ? { traceparent: tp } : {}), ...(active ? { activeSpanId: active } : {}) });
  };
  const impl = {
    RunPodSandbox: (call: grpc.ServerUnaryCall<{ name: string }, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      note(call.metadata);
      // Work inside the handler continues the server span (e.g. the apiserver's storage spans).
      void serverSide.withSpan('sandbox.create', async () => ({ podSandboxId: `sb-${call.request.name}` })).then((res) => cb(null, res));
    },
    ContainerStatus: (call: grpc.ServerUnaryCall<{ containerId: string }, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      note(call.metadata);
      if (call.request.containerId === 'boom') cb(new Error('runtime exploded'));
      else cb({ code: grpc.status.NOT_FOUND, details: `an error occurred when try to find container "${call.request.containerId}": not found` });
    },
    Watch: (call: grpc.ServerWritableStream<unknown, unknown>) => {
      note(call.metadata);
      call.write({ type: 'ADDED' });
      call.write({ type: 'MODIFIED' });
      call.end();
    },
  };
  const server = new grpc.Server();
  server.addService(service, traceServerHandlers(serverSide, service, impl));
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
  const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { interceptors: grpcClientInterceptors(clientSide) });
  return {
    client,
    seen,
    call: (name, req) => new Promise((resolve, reject) => (client as unknown as Record<string, Unary>)[name]!(req, new grpc.Metadata(), (err, res) => (err ? reject(err) : resolve(res)))),
    watch: () =>
      new Promise((resolve, reject) => {
        const got: unknown[] = [];
        const stream = (client as unknown as Record<string, (req: unknown) => grpc.ClientReadableStream<unknown>>).Watch!({});
        stream.on('data', (d) => got.push(d));
        stream.on('error', reject);
        stream.on('end', () => resolve(got));
      }),
    close: async () => {
      client.close();
      await new Promise<void>((r) => server.tryShutdown(() => r()));
    },
  };
}

describe('gRPC client and server spans', () => {
  let r: Rig | undefined;
  let kubelet: TestTracing;
  let containerd: TestTracing;
  afterEach(async () => {
    await r?.close();
    r = undefined;
    await kubelet?.tracing.shutdown();
    await containerd?.tracing.shutdown();
  });

  it('parents the CRI call: kubelet sync → CLIENT span → containerd SERVER span → handler work', async () => {
    kubelet = setupTestTracing('kubelet', { node: 'node-1' });
    containerd = setupTestTracing('containerd', { node: 'node-1' });
    r = await rig(kubelet.tracing, containerd.tracing);
    const res = await kubelet.tracing.withSpan('syncPod default/web', () => r!.call('RunPodSandbox', { name: 'web' }));
    expect(res).toEqual({ podSandboxId: 'sb-web' });
    await kubelet.tracing.forceFlush();
    await containerd.tracing.forceFlush();

    const [client, sync] = kubelet.spans().map(summarizeSpan);
    const [work, server] = containerd.spans().map(summarizeSpan);
    expect(sync).toMatchObject({ name: 'syncPod default/web', kind: 'INTERNAL', service: 'kubelet', status: 'UNSET' });
    expect(sync!.parentSpanId).toBeUndefined();
    expect(client).toMatchObject({ name: 'runtime.v1.RuntimeService/RunPodSandbox', kind: 'CLIENT', service: 'kubelet', traceId: sync!.traceId, parentSpanId: sync!.spanId, status: 'UNSET' });
    expect(server).toMatchObject({ name: 'runtime.v1.RuntimeService/RunPodSandbox', kind: 'SERVER', service: 'containerd', traceId: sync!.traceId, parentSpanId: client!.spanId });
    expect(work).toMatchObject({ name: 'sandbox.create', kind: 'INTERNAL', traceId: sync!.traceId, parentSpanId: server!.spanId });
    // What crossed the wire, and what the handler saw as active.
    expect(r.seen).toEqual([{ traceparent: `00-${sync!.traceId}-${client!.spanId}-01`, activeSpanId: server!.spanId }]);
    expect(kubelet.spans()[0]!.attributes).toEqual({ 'rpc.system': 'grpc', 'rpc.service': 'runtime.v1.RuntimeService', 'rpc.method': 'RunPodSandbox', 'rpc.grpc.status_code': 0 });
    expect(containerd.spans()[1]!.resource.attributes).toMatchObject({ 'service.name': 'containerd', 'k8s.node.name': 'node-1' });
  });

  it('marks failed calls: any non-OK on the client, only server faults on the server', async () => {
    kubelet = setupTestTracing('kubelet');
    containerd = setupTestTracing('containerd');
    r = await rig(kubelet.tracing, containerd.tracing);
    await expect(r.call('ContainerStatus', { containerId: 'abc' })).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
    await expect(r.call('ContainerStatus', { containerId: 'boom' })).rejects.toMatchObject({ code: grpc.status.UNKNOWN });
    const client = kubelet.spans().map(summarizeSpan);
    const server = containerd.spans().map(summarizeSpan);
    expect(client.map((s) => [s.kind, s.status, s.statusMessage])).toEqual([
      ['CLIENT', 'ERROR', 'NOT_FOUND: an error occurred when try to find container "abc": not found'],
      ['CLIENT', 'ERROR', 'UNKNOWN: runtime exploded'],
    ]);
    expect(server.map((s) => [s.kind, s.status, s.statusMessage])).toEqual([
      ['SERVER', 'UNSET', undefined],
      ['SERVER', 'ERROR', 'UNKNOWN: runtime exploded'],
    ]);
    expect(containerd.spans().map((s) => s.attributes['rpc.grpc.status_code'])).toEqual([5, 2]);
  });

  it('keeps a server-streaming call (a watch) in one span until the stream ends', async () => {
    kubelet = setupTestTracing('kubelet');
    containerd = setupTestTracing('apiserver');
    r = await rig(kubelet.tracing, containerd.tracing);
    expect(await r.watch()).toEqual([{ type: 'ADDED' }, { type: 'MODIFIED' }]);
    await containerd.tracing.forceFlush();
    const [client] = kubelet.spans().map(summarizeSpan);
    const [server] = containerd.spans().map(summarizeSpan);
    expect(client).toMatchObject({ name: 'kubelab.api.v1.API/Watch', kind: 'CLIENT', status: 'UNSET' });
    expect(server).toMatchObject({ name: 'kubelab.api.v1.API/Watch', kind: 'SERVER', parentSpanId: client!.spanId, status: 'UNSET' });
  });

  it('follows upstream sampling: unset rate never starts a trace but continues a sampled parent', async () => {
    kubelet = setupTestTracing('kubelet', { samplingRatePerMillion: 1_000_000 });
    containerd = setupTestTracing('containerd', { samplingRatePerMillion: 0 });
    r = await rig(kubelet.tracing, containerd.tracing);
    await r.call('RunPodSandbox', { name: 'a' });
    await containerd.tracing.withSpan('relist', async () => {});
    expect(containerd.spans().map((s) => s.name)).toEqual(['sandbox.create', 'runtime.v1.RuntimeService/RunPodSandbox']);

    await r.close();
    await kubelet.tracing.shutdown();
    await containerd.tracing.shutdown();
    kubelet = setupTestTracing('kubelet', { samplingRatePerMillion: 0 });
    containerd = setupTestTracing('containerd', { samplingRatePerMillion: 1_000_000 });
    r = await rig(kubelet.tracing, containerd.tracing);
    await r.call('RunPodSandbox', { name: 'b' });
    expect(kubelet.spans()).toEqual([]);
    // The unsampled decision travels too (flags 00), so the server does not sample either.
    expect(r.seen[0]!.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(containerd.spans()).toEqual([]);
  });

  it('a call site that starts the CLIENT span itself (callTracedUnary) gets the same span and wire context; the interceptor stands aside', async () => {
    kubelet = setupTestTracing('kubelet', { node: 'node-1' });
    containerd = setupTestTracing('containerd', { node: 'node-1' });
    r = await rig(kubelet.tracing, containerd.tracing);
    // What the client library and the kubelet's CRI client find in the interceptors they are handed.
    const tracing = tracingOfInterceptors(grpcClientInterceptors(kubelet.tracing));
    expect(tracing).toBe(kubelet.tracing);
    expect(tracingOfInterceptors([])).toBeUndefined();
    expect(tracingOfInterceptors([(o, next) => new grpc.InterceptingCall(next(o))])).toBeUndefined();

    const unary = (r.client as unknown as Record<string, UnaryMethod<unknown, unknown>>).ContainerStatus!;
    const call = (containerId: string, parent: Context) =>
      new Promise<unknown>((resolve, reject) => {
        callTracedUnary(tracing!, r!.client, unary, { containerId }, new grpc.Metadata(), { deadline: Date.now() + 5000 }, parent, (err, res) => (err ? reject(err) : resolve(res)));
      });
    await kubelet.tracing.withSpan('syncPod', (span) => expect(call('abc', trace.setSpan(ROOT_CONTEXT, span))).rejects.toMatchObject({ code: grpc.status.NOT_FOUND }));
    await containerd.tracing.forceFlush();

    const [client, sync] = kubelet.spans().map(summarizeSpan);
    const [server] = containerd.spans().map(summarizeSpan);
    // One CLIENT span (none from the interceptor), child of the caller's span; the server continues it.
    expect(kubelet.spans()).toHaveLength(2);
    expect(client).toMatchObject({ name: 'runtime.v1.RuntimeService/ContainerStatus', kind: 'CLIENT', traceId: sync!.traceId, parentSpanId: sync!.spanId, status: 'ERROR' });
    expect(client!.statusMessage).toBe('NOT_FOUND: an error occurred when try to find container "abc": not found');
    expect(server).toMatchObject({ kind: 'SERVER', traceId: sync!.traceId, parentSpanId: client!.spanId });
    expect(r.seen).toEqual([{ traceparent: `00-${sync!.traceId}-${client!.spanId}-01`, activeSpanId: server!.spanId }]);
    expect(kubelet.spans()[0]!.attributes).toEqual({ 'rpc.system': 'grpc', 'rpc.service': 'runtime.v1.RuntimeService', 'rpc.method': 'ContainerStatus', 'rpc.grpc.status_code': 5 });
  });

  it('off: no interceptors, the very same handlers, no context on the wire', async () => {
    const off = setupTracing({ serviceName: 'kubelet', env: {} });
    expect(off.enabled).toBe(false);
    expect(grpcClientInterceptors(off)).toEqual([]);
    const impl = { RunPodSandbox: () => {} };
    expect(traceServerHandlers(off, service, impl)).toBe(impl);
    r = await rig(off, setupTracing({ serviceName: 'containerd', env: {} }));
    expect(await off.withSpan('syncPod', () => r!.call('RunPodSandbox', { name: 'c' }))).toEqual({ podSandboxId: 'sb-c' });
    expect(r.seen).toEqual([{}]);
  });
});
