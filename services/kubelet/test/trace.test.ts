// One trace per pod start across the services (issue 9): a pod created under
// a sampled client span is continued by the apiserver (which records the
// context in kubelab.io/traceparent), the scheduler's binding, the kubelet's
// syncPod and its CRI calls, and containerd's CRI server spans — every span
// in ONE trace with correct parent links. apiserver, scheduler, kubelet and
// containerd run in-process, each with its own provider on one shared
// in-memory exporter; only the client samples roots (as the compose tracing
// profile advises), the others follow the parent.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pod } from '@kubelab/api';
import { startApiserver, type RunningApiserver } from '@kubelab/apiserver';
import { createClientset, type Clientset } from '@kubelab/client';
import { createTestPki } from '@kubelab/apiserver/testing';
import { startContainerd, type ContainerdHandle } from '@kubelab/containerd';
import { startScheduler, type RunningScheduler } from '@kubelab/scheduler';
import { requireTool, startNatsServer, type NatsServerHandle, waitFor } from '@kubelab/testing';
import { grpcClientInterceptors, installedContextPropagation, setupTracing, TRACEPARENT_ANNOTATION, type Tracing } from '@kubelab/tracing';
import { InMemorySpanExporter, summarizeSpan, type SpanSummary } from '@kubelab/tracing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubelet, type RunningKubelet } from '../src/index.js';
import { POLL, quiet } from './harness.js';

describe.skipIf(!requireTool('nats-server'))('one trace per pod start: apiserver → scheduler → kubelet → containerd', () => {
  const exporter = new InMemorySpanExporter();
  const tracings: Tracing[] = [];
  const traced = (serviceName: string, samplingRatePerMillion?: number) => {
    // 'sync' everywhere, as every service process runs now: parent links must come from explicitly handed-over contexts.
    const t = setupTracing({
      serviceName,
      node: serviceName === 'kubelet' || serviceName === 'containerd' ? 'node-1' : undefined,
      exporter,
      env: {},
      contextPropagation: 'sync',
      ...(samplingRatePerMillion !== undefined ? { samplingRatePerMillion } : {}),
    });
    tracings.push(t);
    return t;
  };
  let dir: string;
  let nats: NatsServerHandle;
  let apiserver: RunningApiserver;
  let containerd: ContainerdHandle;
  let scheduler: RunningScheduler;
  let kubelet: RunningKubelet;
  let client: Tracing;
  let cs: Clientset;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubelab-trace-'));
    nats = await startNatsServer();
    const pki = await createTestPki();
    apiserver = await startApiserver({
      natsUrl: nats.url,
      bindAddress: '127.0.0.1',
      securePort: 0,
      grpcPort: 0,
      logger: quiet('apiserver'),
      rest: false,
      tracing: traced('apiserver'),
      tls: pki.tls,
      // No node lifecycle controller here lifts a new Node's not-ready taint (as upstream's integration test servers).
      disableAdmissionPlugins: ['TaintNodesByCondition'],
    });
    await apiserver.ready;
    const address = `127.0.0.1:${apiserver.grpcPort}`;
    containerd = await startContainerd({
      nodeName: 'node-1',
      address: join(dir, 'containerd.sock'),
      root: join(dir, 'containerd'),
      healthPort: 0,
      pullBytesPerSecond: 0,
      podCidr: '10.244.1.0/24',
      logger: quiet('containerd'),
      tracing: traced('containerd'),
    });
    kubelet = await startKubelet({
      apiserver: address,
      apiserverTls: await pki.clientTls({ commonName: 'system:node:node-1', organizations: ['system:nodes'] }),
      nodeName: 'node-1',
      nodeIP: '127.0.0.1',
      containerRuntimeEndpoint: `unix://${containerd.socketPath}`,
      address: '127.0.0.1',
      port: 0,
      healthzPort: -1,
      rootDir: join(dir, 'kubelet'),
      podLogsDir: join(dir, 'pods'),
      nodeStatusUpdateFrequencyMs: 500,
      logger: quiet('kubelet'),
      tracing: traced('kubelet'),
    });
    scheduler = await startScheduler({
      apiserverAddress: address,
      apiserverTls: await pki.clientTls({ commonName: 'system:kube-scheduler' }),
      bindAddress: '127.0.0.1',
      securePort: 0,
      leaderElect: false,
      logger: quiet('kube-scheduler'),
      tracing: traced('kube-scheduler'),
    });
    // The user's side (kubectl): the only one that samples new roots.
    client = traced('kubectl', 1_000_000);
    cs = createClientset({ address, tls: pki.admin, component: 'kubectl', interceptors: grpcClientInterceptors(client) });
    await waitFor('node-1 Ready', async () => (await cs.core.nodes().get('node-1')).status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'), { ...POLL, timeoutMs: 15_000 });
    expect(installedContextPropagation()).toBe('sync');
  }, 40_000);

  afterAll(async () => {
    cs?.close();
    await scheduler?.stop().catch(() => {});
    await kubelet?.stop().catch(() => {});
    await containerd?.stop().catch(() => {});
    await apiserver?.stop().catch(() => {});
    await nats?.dispose();
    for (const t of tracings) await t.shutdown();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('creating one pod yields one trace with apiserver, scheduler (bind), kubelet (syncPod) and containerd (CRI) spans, correctly parented', async () => {
    const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'traced', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'busybox:1.37', command: ['sleep', '600'] }] } };
    const created = await client.withSpan('kubectl create pod', () => cs.core.pods('default').create(pod));
    expect(created.metadata.annotations?.[TRACEPARENT_ANNOTATION]).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await waitFor('traced running', async () => (await cs.core.pods('default').get('traced')).status?.containerStatuses?.[0]?.state?.running, { ...POLL, timeoutMs: 15_000 });
    await kubelet.kubelet.statusManager.whenIdle();
    for (const t of tracings) await t.forceFlush();

    const all = exporter.getFinishedSpans().map(summarizeSpan);
    const root = all.find((s) => s.name === 'kubectl create pod')!;
    const trace = all.filter((s) => s.traceId === root.traceId);
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const parentOf = (s: SpanSummary) => (s.parentSpanId ? byId.get(s.parentSpanId) : undefined);
    const chain = (s: SpanSummary) => {
      const out: string[] = [];
      for (let p = parentOf(s); p; p = parentOf(p)) out.push(`${p.service}:${p.name}`);
      return out;
    };

    // ONE tree: every span but the root has its parent in the same trace.
    expect(trace.filter((s) => s !== root && !parentOf(s)).map((s) => `${s.service}:${s.name}`)).toEqual([]);
    const services = new Set(trace.map((s) => s.service));
    expect([...services].sort()).toEqual(['apiserver', 'containerd', 'kube-scheduler', 'kubectl', 'kubelet']);

    // The apiserver's Create continues the client; the pod's annotation names that SERVER span.
    const createServer = trace.find((s) => s.service === 'apiserver' && s.kind === 'SERVER' && s.name === 'kubelab.apiserver.v1.ResourceService/Create')!;
    expect(chain(createServer)).toEqual(['kubectl:kubelab.apiserver.v1.ResourceService/Create', 'kubectl:kubectl create pod']);
    expect(created.metadata.annotations?.[TRACEPARENT_ANNOTATION]).toBe(`00-${root.traceId}-${createServer.spanId}-01`);

    // The write reached the watch cache: its processing is a CONSUMER span under the KV create (context in the NATS headers).
    const kvCreate = trace.find((s) => s.service === 'apiserver' && s.name === 'KV create' && s.parentSpanId === createServer.spanId)!;
    expect(trace.filter((s) => s.kind === 'CONSUMER' && s.parentSpanId === kvCreate.spanId).map((s) => `${s.service}:${s.name}`)).toEqual(['apiserver:process $KV.kubelab.>']);

    // The scheduler's binding: CLIENT under the pod's context, the apiserver's Bind SERVER under it.
    const bind = trace.find((s) => s.service === 'kube-scheduler' && s.name === 'kubelab.apiserver.v1.ResourceService/Bind')!;
    expect(bind).toMatchObject({ kind: 'CLIENT', parentSpanId: createServer.spanId });
    expect(trace.some((s) => s.service === 'apiserver' && s.kind === 'SERVER' && s.name.endsWith('/Bind') && s.parentSpanId === bind.spanId)).toBe(true);

    // The kubelet's syncs continue the pod's trace; its CRI calls are their children, containerd serves them.
    const syncs = trace.filter((s) => s.service === 'kubelet' && s.name === 'syncPod');
    expect(syncs.length).toBeGreaterThan(0);
    for (const s of syncs) expect(s).toMatchObject({ kind: 'INTERNAL', parentSpanId: createServer.spanId });
    for (const method of ['runtime.v1.RuntimeService/RunPodSandbox', 'runtime.v1.ImageService/PullImage', 'runtime.v1.RuntimeService/CreateContainer', 'runtime.v1.RuntimeService/StartContainer']) {
      const server = trace.filter((s) => s.service === 'containerd' && s.name === method);
      expect(server, method).toHaveLength(1);
      expect(server[0]).toMatchObject({ kind: 'SERVER', status: 'UNSET' });
      expect(chain(server[0]!).slice(0, 2), method).toEqual([`kubelet:${method}`, 'kubelet:syncPod']);
      expect(parentOf(parentOf(server[0]!)!)!.parentSpanId).toBe(createServer.spanId);
    }
    // In the order the kubelet made them.
    const order = trace.filter((s) => s.service === 'containerd' && /RunPodSandbox|PullImage|CreateContainer|StartContainer/.test(s.name)).map((s) => s.name.split('/')[1]);
    expect(order).toEqual(['RunPodSandbox', 'PullImage', 'CreateContainer', 'StartContainer']);
    // The kubelet's status write (a PATCH of pods/status) joins the trace too.
    expect(trace.some((s) => s.service === 'kubelet' && s.name === 'kubelab.apiserver.v1.ResourceService/Patch')).toBe(true);
    // Periodic work (lease renewals, node status, the 1 s relist) stays out of it: every other
    // kubelet span in the trace belongs to a sync (its own pod-status reads included).
    const stray = trace.filter((s) => s.service === 'kubelet' && s.name !== 'syncPod' && !s.name.endsWith('/Patch') && !chain(s).includes('kubelet:syncPod'));
    expect(stray.map((s) => s.name)).toEqual([]);
    expect(trace.filter((s) => /Lease|Node/.test(s.name) || (s.service === 'apiserver' && s.name.includes('leases'))).map((s) => s.name)).toEqual([]);
  }, 30_000);
});
