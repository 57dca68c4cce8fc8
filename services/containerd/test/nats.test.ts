import { connect } from '@nats-io/transport-node';
import * as grpc from '@grpc/grpc-js';
import { requireTool, waitFor } from '@kubelab/testing';
import { TRACE_NATS_IDENTITY, containerdNatsIdentity, natsAuthOptions } from '@kubelab/nats';
import { startSecureNatsServer, type SecureNatsServer } from '@kubelab/nats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CriCallRecord } from '@kubelab/proto';
import { containerConfig, sandboxConfig, startHarness, type Harness } from '../src/testing/harness.js';

describe.skipIf(!requireTool('nats-server'))('CRI call records on NATS', () => {
  // NATS as the cluster runs it: the runtime publishes as node-1's identity, the test reads as `kubelab trace`.
  let nats: SecureNatsServer;
  let h: Harness;
  let reader: { servers: string } & ReturnType<typeof natsAuthOptions>;
  beforeAll(async () => {
    nats = await startSecureNatsServer();
    h = await startHarness({ podCidr: '10.244.1.0/24', natsUrl: nats.url, natsTls: await nats.clientTls(containerdNatsIdentity('node-1')) });
    reader = { servers: nats.url, ...natsAuthOptions(TRACE_NATS_IDENTITY, await nats.clientTls(TRACE_NATS_IDENTITY)) };
  });
  afterAll(async () => {
    await h?.dispose();
    await nats?.dispose();
  });

  it('publishes kubelab.cri.<node>.<method> with pod, status and trace context', async () => {
    const nc = await connect(reader);
    // Publishing starts once the runtime's NATS client is connected: call Version until one arrives.
    const warm = nc.subscribe('kubelab.cri.node-1.Version', { max: 1 });
    await nc.flush();
    const warmed = (async () => {
      for await (const _ of warm) return true;
      return false;
    })();
    await waitFor(
      'a Version record on NATS',
      async () => {
        await h.cri.rt.Version({ version: 'v1' });
        return Promise.race([warmed, new Promise<false>((r) => setTimeout(() => r(false), 50))]);
      },
      { timeoutMs: 10_000, everyMs: 0 },
    );
    const sub = nc.subscribe('kubelab.cri.node-1.>');
    const got: CriCallRecord[] = [];
    const done = (async () => {
      for await (const m of sub) {
        got.push({ ...(m.json() as CriCallRecord), subject: m.subject } as CriCallRecord & { subject: string });
        if (got.length === 2) break;
      }
    })();
    await nc.flush();
    const meta = new grpc.Metadata();
    meta.set('traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: sandboxConfig('traced', h.dir) }, meta);
    await expect(h.cri.rt.ContainerStatus({ containerId: 'abc' })).rejects.toMatchObject({ code: 5 });
    await done;
    await nc.close();
    const [run, st] = got as (CriCallRecord & { subject: string })[];
    expect(run).toMatchObject({
      subject: 'kubelab.cri.node-1.RunPodSandbox',
      node: 'node-1',
      service: 'RuntimeService',
      method: 'RunPodSandbox',
      podSandboxId,
      podName: 'traced',
      podNamespace: 'default',
      podUid: 'uid-traced',
      request: { pod: 'default/traced', uid: 'uid-traced', attempt: 0 },
      code: 'OK',
      codeNumber: 0,
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      parentSpanId: '00f067aa0ba902b7',
    });
    expect(run!.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(run!.durationMs).toBeGreaterThanOrEqual(0);
    expect(st).toMatchObject({
      subject: 'kubelab.cri.node-1.ContainerStatus',
      method: 'ContainerStatus',
      containerId: 'abc',
      code: 'NOT_FOUND',
      message: 'an error occurred when try to find container "abc": not found',
    });
    expect(st!.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('names the pod and container in the records of the calls that remove them', async () => {
    const nc = await connect(reader);
    const sub = nc.subscribe('kubelab.cri.node-1.*', { max: 1000 });
    const got: CriCallRecord[] = [];
    const done = (async () => {
      for await (const m of sub) {
        const r = m.json() as CriCallRecord;
        if (r.method === 'RemoveContainer' || r.method === 'RemovePodSandbox') got.push(r);
        if (got.length === 2) break;
      }
    })();
    await nc.flush();
    const config = sandboxConfig('gone', h.dir);
    const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config });
    await h.cri.img.PullImage({ image: { image: 'busybox' } });
    const { containerId } = await h.cri.rt.CreateContainer({ podSandboxId, config: containerConfig('app', 'busybox', { command: ['sleep', '60'] }), sandboxConfig: config });
    await h.cri.rt.RemoveContainer({ containerId });
    await h.cri.rt.StopPodSandbox({ podSandboxId });
    await h.cri.rt.RemovePodSandbox({ podSandboxId });
    await done;
    await nc.close();
    expect(got.map((r) => [r.method, r.podNamespace, r.podName, r.containerName ?? null])).toEqual([
      ['RemoveContainer', 'default', 'gone', 'app'],
      ['RemovePodSandbox', 'default', 'gone', null],
    ]);
  });

  it('publishes every record of a burst of calls, each with its own span id', async () => {
    const nc = await connect(reader);
    const sub = nc.subscribe('kubelab.cri.node-1.Version', { max: 20 });
    await nc.flush();
    const got: CriCallRecord[] = [];
    const done = (async () => {
      for await (const m of sub) got.push(m.json() as CriCallRecord);
    })();
    // Twenty calls in flight at once: their records leave in one batch per event-loop turn.
    await Promise.all(Array.from({ length: 20 }, () => h.cri.rt.Version({ version: 'v1' })));
    await done;
    await nc.close();
    expect(got).toHaveLength(20);
    expect(got.every((r) => r.method === 'Version' && r.code === 'OK' && /^[0-9a-f]{16}$/.test(r.spanId) && /^[0-9a-f]{32}$/.test(r.traceId))).toBe(true);
    expect(new Set(got.map((r) => r.spanId)).size).toBe(20);
    expect(new Set(got.map((r) => r.traceId)).size).toBe(20);
  });

  it('keeps serving CRI calls while NATS is down', async () => {
    await nats.stop();
    expect((await h.cri.rt.Version({ version: 'v1' })).runtimeName).toBe('containerd');
    await nats.restart();
  });
});
