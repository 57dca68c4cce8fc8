// CRI calls as OpenTelemetry spans: the kubelet's CLIENT span (interceptor)
// → containerd's SERVER span named like the RPC, and the NATS call record
// carrying the SERVER span's ids so `kubelab trace` lines match Jaeger.

import { connect, type NatsConnection } from '@nats-io/transport-node';
import { grpcClientInterceptors, setupTracing, SpanKind, type Tracing } from '@kubelab/tracing';
import { setupTestTracing, summarizeSpan } from '@kubelab/tracing/testing';
import { requireTool, startNatsServer, waitFor, type NatsServerHandle } from '@kubelab/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CriCallRecord } from '@kubelab/proto';
import { criClient, sandboxConfig, startHarness, type Cri, type Harness } from '../src/testing/harness.js';

/** Resolves with the first record on `subject` once the runtime's NATS client publishes (it connects asynchronously). */
async function firstRecord(nc: NatsConnection, subject: string, call: () => Promise<unknown>): Promise<CriCallRecord> {
  return (await firstMessage(nc, subject, call)).rec;
}

/** The first record on `subject` with its message headers (header name → value). */
async function firstMessage(nc: NatsConnection, subject: string, call: () => Promise<unknown>): Promise<{ rec: CriCallRecord; headers: Record<string, string> | undefined }> {
  const sub = nc.subscribe(subject);
  await nc.flush();
  const got = (async () => {
    for await (const m of sub) return { rec: m.json() as CriCallRecord, headers: m.headers ? Object.fromEntries(m.headers.keys().map((k) => [k, m.headers!.get(k)])) : undefined };
    throw new Error(`no record on ${subject}`);
  })();
  try {
    // Calls again every 50 ms until a record arrives: the first ones may go out before the runtime's client connects.
    return await waitFor(
      `a record on ${subject}`,
      async () => {
        await call();
        return Promise.race([got, new Promise<undefined>((r) => setTimeout(() => r(undefined), 50))]);
      },
      { timeoutMs: 10_000, everyMs: 0 },
    );
  } finally {
    sub.unsubscribe();
  }
}

describe.skipIf(!requireTool('nats-server'))('CRI tracing', () => {
  let nats: NatsServerHandle;
  let nc: NatsConnection;
  let h: Harness | undefined;
  let cri: Cri | undefined;
  beforeAll(async () => {
    nats = await startNatsServer();
    nc = await connect({ servers: nats.url });
  });
  afterEach(async () => {
    cri?.close();
    await h?.dispose();
    h = undefined;
    cri = undefined;
  });
  afterAll(async () => {
    await nc?.close();
    await nats?.dispose();
  });

  it('a traced kubelet call is a containerd SERVER span named as the RPC, and the record carries its ids', async () => {
    const kubelet = setupTestTracing('kubelet', { node: 'node-1' });
    // containerd leaves the rate unset, as in the cluster: it follows the kubelet's decision.
    const containerd = setupTestTracing('containerd', { node: 'node-1', samplingRatePerMillion: 0 });
    h = await startHarness({ podCidr: '10.244.1.0/24', natsUrl: nats.url, tracing: containerd.tracing });
    cri = criClient(h.handle.socketPath, { interceptors: grpcClientInterceptors(kubelet.tracing) });
    await firstRecord(nc, 'kubelab.cri.node-1.Version', () => cri!.rt.Version({ version: 'v1' }));
    kubelet.reset();
    containerd.reset();

    const c = cri;
    const dir = h.dir;
    const rec = await firstRecord(nc, 'kubelab.cri.node-1.RunPodSandbox', () => kubelet.tracing.withSpan('syncPod', () => c.rt.RunPodSandbox({ config: sandboxConfig('traced', dir) })));

    const client = kubelet
      .spans()
      .map(summarizeSpan)
      .find((s) => s.name === 'runtime.v1.RuntimeService/RunPodSandbox')!;
    const sync = kubelet
      .spans()
      .map(summarizeSpan)
      .find((s) => s.name === 'syncPod')!;
    const server = containerd
      .spans()
      .map(summarizeSpan)
      .filter((s) => s.kind === 'SERVER');
    expect(server).toEqual([
      {
        name: 'runtime.v1.RuntimeService/RunPodSandbox',
        kind: 'SERVER',
        service: 'containerd',
        traceId: sync.traceId,
        spanId: expect.stringMatching(/^[0-9a-f]{16}$/),
        parentSpanId: client.spanId,
        status: 'UNSET',
      },
    ]);
    expect(client).toMatchObject({ kind: 'CLIENT', service: 'kubelet', traceId: sync.traceId, parentSpanId: sync.spanId });
    expect({ traceId: rec.traceId, spanId: rec.spanId, parentSpanId: rec.parentSpanId }).toEqual({ traceId: server[0]!.traceId, spanId: server[0]!.spanId, parentSpanId: client.spanId });
    expect(rec).toMatchObject({ method: 'RunPodSandbox', podName: 'traced', code: 'OK' });
  });

  it("publishes a call record as exported telemetry: no PRODUCER span, no headers, the SERVER span's ids in the record", async () => {
    const kubelet = setupTestTracing('kubelet', { node: 'node-1' });
    const containerd = setupTestTracing('containerd', { node: 'node-1', samplingRatePerMillion: 0 });
    h = await startHarness({ podCidr: '10.244.1.0/24', natsUrl: nats.url, tracing: containerd.tracing });
    cri = criClient(h.handle.socketPath, { interceptors: grpcClientInterceptors(kubelet.tracing) });
    const c = cri;
    const dir = h.dir;
    let attempt = 0; // a fresh pod per call: firstMessage may call again before its subscription sees a record
    const msg = await firstMessage(nc, 'kubelab.cri.node-1.RunPodSandbox', () =>
      kubelet.tracing.withSpan('syncPod', () => c.rt.RunPodSandbox({ config: sandboxConfig(`published${attempt++}`, dir) })),
    );
    // Only the call's SERVER span: publishing the record is the export of trace data (OTel does not trace its exporters).
    const spans = containerd.spans();
    expect(new Set(spans.map((s) => `${s.name} ${SpanKind[s.kind]}`))).toEqual(new Set(['runtime.v1.RuntimeService/RunPodSandbox SERVER']));
    expect(msg.headers).toBeUndefined();
    // A consumer continues the trace from the record itself.
    const server = spans.find((s) => s.spanContext().spanId === msg.rec.spanId);
    expect(server?.spanContext().traceId).toBe(msg.rec.traceId);
  });

  it('a failing call ends its SERVER span with the gRPC status; client errors stay UNSET on the server', async () => {
    const kubelet = setupTestTracing('kubelet', { node: 'node-1' });
    const containerd = setupTestTracing('containerd', { node: 'node-1', samplingRatePerMillion: 0 });
    h = await startHarness({ podCidr: '10.244.1.0/24', tracing: containerd.tracing });
    cri = criClient(h.handle.socketPath, { interceptors: grpcClientInterceptors(kubelet.tracing) });
    const c = cri;
    await expect(kubelet.tracing.withSpan('probe', () => c.rt.ContainerStatus({ containerId: 'abc' }))).rejects.toMatchObject({ code: 5 });
    // A runtime error: port forwarding into a sandbox that was stopped.
    const { podSandboxId } = await c.rt.RunPodSandbox({ config: sandboxConfig('stopped', h.dir) });
    await c.rt.StopPodSandbox({ podSandboxId });
    await expect(kubelet.tracing.withSpan('port-forward', () => c.rt.PortForward({ podSandboxId, port: [80] }))).rejects.toMatchObject({ code: 2 });
    expect(
      containerd.spans().map((s) => {
        const x = summarizeSpan(s);
        return [x.name, x.kind, x.status, x.statusMessage];
      }),
    ).toEqual([
      ['runtime.v1.RuntimeService/ContainerStatus', 'SERVER', 'UNSET', undefined],
      ['runtime.v1.RuntimeService/RunPodSandbox', 'SERVER', 'UNSET', undefined],
      ['runtime.v1.RuntimeService/StopPodSandbox', 'SERVER', 'UNSET', undefined],
      ['runtime.v1.RuntimeService/PortForward', 'SERVER', 'ERROR', 'UNKNOWN: sandbox container is not running'],
    ]);
  });

  it('tracing off: no spans, and the record keeps continuing the caller traceparent with its own span id', async () => {
    // A Tracing that says "off" but would record if anything used its tracer.
    const spy = setupTestTracing('containerd', { node: 'node-1' });
    const off: Tracing = { ...spy.tracing, enabled: false };
    expect(setupTracing({ serviceName: 'containerd', env: {} }).enabled).toBe(false);
    h = await startHarness({ natsUrl: nats.url, podCidr: '10.244.1.0/24', tracing: off });
    cri = criClient(h.handle.socketPath);
    const { Metadata } = await import('@grpc/grpc-js');
    const md = new Metadata();
    md.set('traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    const c = cri;
    const rec = await firstRecord(nc, 'kubelab.cri.node-1.Version', () => c.rt.Version({ version: 'v1' }, md));
    expect(rec).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentSpanId: '00f067aa0ba902b7' });
    expect(rec.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(spy.spans()).toEqual([]);
  });
});
