// The CRI gRPC services over the runtime: request validation, error mapping,
// and one call record per call (see record.ts) around every handler.

import * as grpc from '@grpc/grpc-js';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { Logger } from '@kubelab/component-base';
import { metricDescriptors, podSandboxMetrics } from './cri-metrics.js';
import type { HostPorts } from './hostports.js';
import { containerInfo } from './verbose-info.js';
import { criProto, type CriCallRecord, type CriContainer, type CriPodSandbox, type ImageServiceHandlers, type RuntimeServiceHandlers } from '@kubelab/proto';
import { serverSpanOf, type Tracing } from '@kubelab/tracing';
import { containerStatsToProto, containerStatusToProto, containerToProto, imageToProto, sandboxInfo, sandboxStatusToProto, sandboxToProto } from './convert.js';
import { RuntimeError, invalid, toGrpcError } from './errors.js';
import { continueTrace, spanTrace, type RecordSink } from './record.js';
import { RUNTIME_API_VERSION, RUNTIME_NAME, RUNTIME_VERSION, type Container, type Runtime, type Sandbox } from './runtime.js';
import { nowNanos } from './time.js';
import { criLogLines } from './cri-log.js';

export interface ServerDeps {
  runtime: Runtime;
  node: string;
  networkMode: string;
  /** Where call records go; without it (and without metrics) no record is built. */
  sink?: RecordSink;
  /** containerd's own info lines for the calls that change things (cri-log.ts). */
  log?: Pick<Logger, 'info' | 'error'>;
  metrics?: Registry;
  /** On: records carry the ids of the call's SERVER span (the handlers are wrapped by traceServerHandlers). */
  tracing?: Tracing;
  /** hostPort mappings, served while their sandbox is ready (hostports.ts). */
  hostPorts?: Pick<HostPorts, 'open' | 'close'>;
  /** The streaming server Exec and Attach hand URLs of (streaming/server.ts); without it they are UNIMPLEMENTED. */
  streaming?: {
    getExec(req: { containerId: string; cmd: string[]; tty: boolean; stdin: boolean; stdout: boolean; stderr: boolean }): string;
    getAttach(req: { containerId: string; tty: boolean; stdin: boolean; stdout: boolean; stderr: boolean }): string;
    getPortForward?(req: { podSandboxId: string; port: number[] }): string;
    /** A stream its container's shim serves at `target`, handed out as this server's URL. */
    getProxied?(kind: 'exec' | 'attach', target: string): string;
  };
}

interface Outcome<R> {
  response: R;
  sandboxId?: string;
  containerId?: string;
  /** Recorded as the call record's `response`. */
  summary?: Record<string, unknown>;
}

/** What a call's record says about its request; `pod` names the pod when no sandbox exists yet (PullImage). */
type Describe<Q> = (req: Q) => {
  request: Record<string, unknown>;
  sandboxId?: string;
  containerId?: string;
  pod?: { name: string; namespace: string; uid: string };
  /** The container's name, looked up before the call (a removed container has none afterwards). */
  containerName?: string;
};

function requireId(value: string, field: string): string {
  if (!value) throw invalid(field, 'must not be empty');
  return value;
}

function seconds(v: string | number): number {
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
}

export function buildServices(deps: ServerDeps): { runtime: RuntimeServiceHandlers; image: ImageServiceHandlers } {
  const rt = deps.runtime;
  const calls = deps.metrics
    ? new Counter({ name: 'kubelab_cri_requests_total', help: 'CRI calls served, by method and gRPC code.', labelNames: ['method', 'code'], registers: [deps.metrics] })
    : undefined;
  const latency = deps.metrics
    ? new Histogram({
        name: 'kubelab_cri_request_duration_seconds',
        help: 'CRI call latency.',
        labelNames: ['method'],
        buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
        registers: [deps.metrics],
      })
    : undefined;

  const record = (
    service: CriCallRecord['service'],
    method: string,
    started: number,
    startTime: string,
    call: { metadata: grpc.Metadata },
    desc: ReturnType<Describe<unknown>>,
    outcome: { sandboxId?: string; containerId?: string; summary?: Record<string, unknown> },
    code: number,
    message?: string,
  ) => {
    const durationMs = performance.now() - started;
    const containerId = outcome.containerId ?? desc.containerId;
    const c = containerId ? rt.containers.get(containerId) : undefined;
    const sandboxId = outcome.sandboxId ?? desc.sandboxId ?? c?.sandboxId;
    const sb = sandboxId ? rt.sandboxes.get(sandboxId) : undefined;
    const tp = call.metadata.get('traceparent')[0];
    const traceparent = typeof tp === 'string' ? tp : undefined;
    // The call's SERVER span (still open: record runs before the callback ends it), handed over by the call itself.
    const span = deps.tracing?.enabled ? serverSpanOf(call) : undefined;
    const trace = span ? spanTrace(span.spanContext(), traceparent) : continueTrace(traceparent);
    const pod = sb ? { name: sb.config.metadata!.name, namespace: sb.config.metadata!.namespace, uid: sb.config.metadata!.uid } : desc.pod;
    const containerName = c ? c.config.metadata!.name : desc.containerName;
    const rec: CriCallRecord = {
      time: startTime,
      node: deps.node,
      service,
      method,
      ...(sandboxId ? { podSandboxId: sandboxId } : {}),
      ...(pod ? { podName: pod.name, podNamespace: pod.namespace, podUid: pod.uid } : {}),
      ...(containerId ? { containerId } : {}),
      ...(containerName ? { containerName } : {}),
      request: desc.request,
      ...(outcome.summary ? { response: outcome.summary } : {}),
      durationMs: Math.round(durationMs * 1000) / 1000,
      code: grpc.status[code] ?? String(code),
      codeNumber: code,
      ...(message ? { message } : {}),
      ...trace,
    };
    calls?.inc({ method, code: rec.code });
    latency?.observe({ method }, durationMs / 1000);
    try {
      deps.sink?.publish(rec);
    } catch {
      // Recording must never fail a call.
    }
  };

  /**
   * The pod and container a call concerns, noted before it runs: a record
   * names them even when the call removed them (RemovePodSandbox, RemoveContainer).
   */
  const remember = (desc: ReturnType<Describe<unknown>>): ReturnType<Describe<unknown>> => {
    const c = desc.containerId ? rt.containers.get(desc.containerId) : undefined;
    const sandboxId = desc.sandboxId ?? c?.sandboxId;
    const sb = sandboxId ? rt.sandboxes.get(sandboxId) : undefined;
    if (!sb && !c) return desc;
    const out = { ...desc };
    if (sb && !out.pod) out.pod = { name: sb.config.metadata!.name, namespace: sb.config.metadata!.namespace, uid: sb.config.metadata!.uid };
    if (c) out.containerName = c.config.metadata!.name;
    if (sandboxId && !out.sandboxId) out.sandboxId = sandboxId;
    return out;
  };

  // Nothing reads a record or a count (a hollow node's runtime): none is made.
  const recording = deps.sink !== undefined || calls !== undefined;

  function unary<Q, R>(service: CriCallRecord['service'], method: string, describe: Describe<Q>, fn: (req: Q) => Promise<Outcome<R>> | Outcome<R>): grpc.handleUnaryCall<Q, R> {
    return (call, callback) => {
      const started = performance.now();
      const startTime = recording ? new Date().toISOString() : '';
      let desc: ReturnType<Describe<Q>> = { request: {} };
      const lines = deps.log && criLogLines(method, call.request as Record<string, unknown>);
      if (lines) deps.log!.info(lines.start);
      Promise.resolve()
        .then(() => {
          if (recording) desc = remember(describe(call.request));
          return fn(call.request);
        })
        .then(
          (out) => {
            if (lines) deps.log!.info(lines.done(out.response));
            if (recording) record(service, method, started, startTime, call, desc, out, grpc.status.OK);
            callback(null, out.response);
          },
          (err: unknown) => {
            if (lines) deps.log!.error(lines.failed, { err });
            const { code, details } = toGrpcError(err);
            if (recording) record(service, method, started, startTime, call, desc, {}, code, details);
            callback({ code, details });
          },
        );
    };
  }

  const R = <Q, Res>(method: string, describe: Describe<Q>, fn: (req: Q) => Promise<Outcome<Res>> | Outcome<Res>) => unary('RuntimeService', method, describe, fn);
  const I = <Q, Res>(method: string, describe: Describe<Q>, fn: (req: Q) => Promise<Outcome<Res>> | Outcome<Res>) => unary('ImageService', method, describe, fn);
  const none = () => ({ request: {} });
  const byContainer = (req: { containerId: string }) => ({ request: {}, containerId: req.containerId });
  const bySandbox = (req: { podSandboxId: string }) => ({ request: {}, sandboxId: req.podSandboxId });
  // Exec, Attach and PortForward without a streaming server are not served.
  const streaming = <Q extends { containerId?: string; podSandboxId?: string }>(method: string) =>
    R<Q, { url: string }>(
      method,
      (req) => ({ request: {}, ...(req.containerId ? { containerId: req.containerId } : {}), ...(req.podSandboxId ? { sandboxId: req.podSandboxId } : {}) }),
      () => {
        throw new RuntimeError(grpc.status.UNIMPLEMENTED, `${method} is not implemented by the kubelab runtime (it has no streaming server)`);
      },
    );

  const stats = (c: Container) => containerStatsToProto(rt, c);
  // A shim's stream goes out under the streaming server's URL when it can pass it through.
  const proxied = (kind: 'exec' | 'attach', target: string) => deps.streaming?.getProxied?.(kind, target) ?? target;

  const closeHostPorts = (id: string) => {
    try {
      if (id) deps.hostPorts?.close(rt.getSandbox(id).id);
    } catch {
      // Unknown sandbox: stop and remove are idempotent.
    }
  };
  const runtime: RuntimeServiceHandlers = {
    Version: R(
      'Version',
      (req) => ({ request: { version: req.version } }),
      () => ({
        response: { version: '0.1.0', runtimeName: RUNTIME_NAME, runtimeVersion: RUNTIME_VERSION, runtimeApiVersion: RUNTIME_API_VERSION },
      }),
    ),
    RunPodSandbox: R(
      'RunPodSandbox',
      (req) => ({
        request: {
          pod: req.config?.metadata ? `${req.config.metadata.namespace}/${req.config.metadata.name}` : undefined,
          uid: req.config?.metadata?.uid,
          attempt: req.config?.metadata?.attempt,
          runtimeHandler: req.runtimeHandler || undefined,
        },
      }),
      async (req) => {
        const sb = await rt.runPodSandbox(req.config, req.runtimeHandler);
        await deps.hostPorts?.open(sb);
        return { response: { podSandboxId: sb.id }, sandboxId: sb.id };
      },
    ),
    StopPodSandbox: R('StopPodSandbox', bySandbox, async (req) => {
      closeHostPorts(req.podSandboxId);
      await rt.stopPodSandbox(requireId(req.podSandboxId, 'pod_sandbox_id'));
      return { response: {} };
    }),
    RemovePodSandbox: R('RemovePodSandbox', bySandbox, async (req) => {
      closeHostPorts(req.podSandboxId);
      await rt.removePodSandbox(requireId(req.podSandboxId, 'pod_sandbox_id'));
      return { response: {} };
    }),
    PodSandboxStatus: R(
      'PodSandboxStatus',
      (req) => ({ request: { verbose: req.verbose }, sandboxId: req.podSandboxId }),
      (req) => {
        const sb = rt.getSandbox(requireId(req.podSandboxId, 'pod_sandbox_id'));
        return {
          response: {
            status: sandboxStatusToProto(sb),
            info: req.verbose ? sandboxInfo(sb, deps.networkMode, rt.taskPid(sb.id)) : {},
            containersStatuses: [],
            timestamp: nowNanos().toString(),
          },
          sandboxId: sb.id,
        };
      },
    ),
    ListPodSandbox: R(
      'ListPodSandbox',
      (req) => ({ request: { filter: req.filter ?? undefined } }),
      (req) => {
        const f = req.filter;
        const items = rt.listSandboxes(f ? { id: f.id, ...(f.state ? { state: f.state.state } : {}), labelSelector: f.labelSelector } : undefined);
        return { response: encodedList(sandboxEncoding, items, sandboxToProto) as { items: CriPodSandbox[] } };
      },
    ),
    CreateContainer: R(
      'CreateContainer',
      (req) => ({
        request: { name: req.config?.metadata?.name, attempt: req.config?.metadata?.attempt, image: req.config?.image?.image, command: req.config?.command, args: req.config?.args },
        sandboxId: req.podSandboxId,
      }),
      (req) => {
        const c = rt.createContainer(req.podSandboxId, req.config);
        return { response: { containerId: c.id }, containerId: c.id, sandboxId: c.sandboxId };
      },
    ),
    StartContainer: R('StartContainer', byContainer, async (req) => {
      await rt.startContainer(requireId(req.containerId, 'container_id'));
      return { response: {} };
    }),
    StopContainer: R(
      'StopContainer',
      (req) => ({ request: { timeout: Number(req.timeout) }, containerId: req.containerId }),
      async (req) => {
        const timeout = seconds(req.timeout);
        if (timeout < 0) throw invalid('timeout', `must not be negative, got ${timeout}`);
        await rt.stopContainer(requireId(req.containerId, 'container_id'), timeout);
        return { response: {} };
      },
    ),
    RemoveContainer: R('RemoveContainer', byContainer, async (req) => {
      await rt.removeContainer(requireId(req.containerId, 'container_id'));
      return { response: {} };
    }),
    ListContainers: R(
      'ListContainers',
      (req) => ({ request: { filter: req.filter ?? undefined } }),
      (req) => {
        const f = req.filter;
        const list = rt.listContainers(f ? { id: f.id, ...(f.state ? { state: f.state.state } : {}), podSandboxId: f.podSandboxId, labelSelector: f.labelSelector } : undefined);
        return { response: encodedList(containerEncoding, list, containerToProto) as { containers: CriContainer[] } };
      },
    ),
    ContainerStatus: R(
      'ContainerStatus',
      (req) => ({ request: { verbose: req.verbose }, containerId: req.containerId }),
      (req) => {
        const c = rt.getContainer(requireId(req.containerId, 'container_id'));
        const info: Record<string, string> =
          req.verbose && rt.sandboxes.has(c.sandboxId) ? containerInfo(c, rt.sandboxes.get(c.sandboxId)!, rt.images.resolve(c.imageId)?.def, rt.taskPid(c.sandboxId)) : {};
        return { response: { status: containerStatusToProto(c, rt.images.resolve(c.imageId)), info }, containerId: c.id };
      },
    ),
    UpdateContainerResources: R(
      'UpdateContainerResources',
      (req) => ({ request: { memoryLimitInBytes: req.linux?.memoryLimitInBytes, cpuQuota: req.linux?.cpuQuota }, containerId: req.containerId }),
      async (req) => {
        await rt.updateResources(requireId(req.containerId, 'container_id'), req.linux);
        return { response: {} };
      },
    ),
    ReopenContainerLog: R('ReopenContainerLog', byContainer, async (req) => {
      await rt.reopenContainerLog(requireId(req.containerId, 'container_id'));
      return { response: {} };
    }),
    ExecSync: R(
      'ExecSync',
      (req) => ({ request: { cmd: req.cmd, timeout: Number(req.timeout) }, containerId: req.containerId }),
      async (req) => {
        const out = await rt.execSync(req.containerId, req.cmd, seconds(req.timeout));
        // The exit code is what a probe's verdict rests on: the trace shows it.
        return { response: { stdout: Buffer.from(out.stdout), stderr: Buffer.from(out.stderr), exitCode: out.exitCode }, summary: { exitCode: out.exitCode } };
      },
    ),
    Exec: deps.streaming
      ? R(
          'Exec',
          (req) => ({ request: { cmd: req.cmd, tty: req.tty, stdin: req.stdin, stdout: req.stdout, stderr: req.stderr }, containerId: req.containerId }),
          async (req) => {
            // containerd's checks (cri streaming GetExec), then the container must be running.
            if (req.cmd.length === 0) throw invalid('cmd', 'must not be empty');
            if (!req.stdin && !req.stdout && !req.stderr) throw invalid('stdin', 'one of stdin, stdout, or stderr must be set');
            if (req.tty && req.stderr) throw invalid('tty', 'tty and stderr cannot both be true');
            requireId(req.containerId, 'container_id');
            const exec = { containerId: req.containerId, cmd: req.cmd, tty: req.tty, stdin: req.stdin, stdout: req.stdout, stderr: req.stderr };
            // A container in a shim is streamed by its shim; one in this process by containerd's server.
            const shim = await rt.shimStreamUrl({ kind: 'exec', req: exec });
            const url = shim ? proxied('exec', shim) : (rt.execProcess(req.containerId), deps.streaming!.getExec(exec));
            return { response: { url } };
          },
        )
      : streaming('Exec'),
    Attach: deps.streaming
      ? R(
          'Attach',
          (req) => ({ request: { tty: req.tty, stdin: req.stdin, stdout: req.stdout, stderr: req.stderr }, containerId: req.containerId }),
          async (req) => {
            // containerd: the container must exist and run, then the stream server's checks (GetAttach).
            const c = rt.getContainer(requireId(req.containerId, 'container_id'));
            if (c.state !== 'CONTAINER_RUNNING') throw new RuntimeError(grpc.status.UNKNOWN, `container is in ${c.state} state`);
            if (req.tty && req.stderr) throw invalid('tty', 'tty and stderr cannot both be true');
            if (!req.stdin && !req.stdout && !req.stderr) throw invalid('stdin', 'one of stdin, stdout, and stderr must be set');
            const attach = { containerId: c.id, tty: req.tty, stdin: req.stdin, stdout: req.stdout, stderr: req.stderr };
            const shim = await rt.shimStreamUrl({ kind: 'attach', req: attach });
            const url = shim ? proxied('attach', shim) : deps.streaming!.getAttach(attach);
            return { response: { url } };
          },
        )
      : streaming('Attach'),
    PortForward: deps.streaming?.getPortForward
      ? R(
          'PortForward',
          (req) => ({ request: { port: req.port }, sandboxId: req.podSandboxId }),
          (req) => {
            // containerd: the sandbox must exist and be ready; the ports are not checked (a SPDY client names its own).
            if (!req.podSandboxId) throw new RuntimeError(grpc.status.INVALID_ARGUMENT, 'missing required pod_sandbox_id');
            const sb = rt.getSandbox(req.podSandboxId);
            if (sb.state !== 'SANDBOX_READY') throw new RuntimeError(grpc.status.UNKNOWN, 'sandbox container is not running');
            const url = deps.streaming!.getPortForward!({ podSandboxId: sb.id, port: req.port });
            return { response: { url } };
          },
        )
      : streaming('PortForward'),
    ListMetricDescriptors: R(
      'ListMetricDescriptors',
      () => ({ request: {} }),
      () => ({ response: { descriptors: metricDescriptors() } }),
    ),
    ListPodSandboxMetrics: R(
      'ListPodSandboxMetrics',
      () => ({ request: {} }),
      async () => ({ response: { podMetrics: await podSandboxMetrics(rt) } }),
    ),
    ContainerStats: R('ContainerStats', byContainer, async (req) => {
      const c = rt.getContainer(requireId(req.containerId, 'container_id'));
      return { response: { stats: await stats(c) } };
    }),
    ListContainerStats: R(
      'ListContainerStats',
      (req) => ({ request: { filter: req.filter ?? undefined } }),
      async (req) => {
        const f = req.filter;
        const list = rt.listContainers({ state: 'CONTAINER_RUNNING', ...(f ? { id: f.id, podSandboxId: f.podSandboxId, labelSelector: f.labelSelector } : {}) });
        return { response: { stats: await Promise.all(list.map(stats)) } };
      },
    ),
    PodSandboxStats: R('PodSandboxStats', bySandbox, async (req) => {
      const sb = rt.getSandbox(requireId(req.podSandboxId, 'pod_sandbox_id'));
      return { response: { stats: await podStats(rt, sb.id) } };
    }),
    ListPodSandboxStats: R(
      'ListPodSandboxStats',
      (req) => ({ request: { filter: req.filter ?? undefined } }),
      async (req) => {
        const f = req.filter;
        const list = rt.listSandboxes({ state: 'SANDBOX_READY', ...(f ? { id: f.id, labelSelector: f.labelSelector } : {}) });
        return { response: { stats: await Promise.all(list.map((sb) => podStats(rt, sb.id))) } };
      },
    ),
    UpdateRuntimeConfig: R(
      'UpdateRuntimeConfig',
      (req) => ({ request: { podCidr: req.runtimeConfig?.networkConfig?.podCidr } }),
      (req) => {
        const cidr = req.runtimeConfig?.networkConfig?.podCidr ?? '';
        if (cidr) rt.setPodCidr(cidr);
        return { response: {} };
      },
    ),
    Status: R(
      'Status',
      (req) => ({ request: { verbose: req.verbose } }),
      (req) => {
        const net = rt.networkReady();
        return {
          response: {
            status: {
              conditions: [
                { type: 'RuntimeReady', status: true, reason: '', message: '' },
                net
                  ? { type: 'NetworkReady', status: true, reason: '', message: '' }
                  : { type: 'NetworkReady', status: false, reason: 'NetworkPluginNotReady', message: 'Network plugin returns error: cni plugin not initialized' },
              ],
            },
            info: (req.verbose ? { config: JSON.stringify({ podCIDR: rt.getPodCidr(), networkMode: deps.networkMode, node: deps.node }) } : {}) as Record<string, string>,
            runtimeHandlers: [
              { name: '', features: { recursiveReadOnlyMounts: false, userNamespaces: false } },
              { name: 'runc', features: { recursiveReadOnlyMounts: false, userNamespaces: false } },
            ],
            features: { supplementalGroupsPolicy: false },
          },
        };
      },
    ),
    RuntimeConfig: R('RuntimeConfig', none, () => ({ response: { linux: { cgroupDriver: 'SYSTEMD' } } })),
    GetContainerEvents: (call) => {
      const onEvent = (ev: { container: Container; type: string; at: string }) => {
        const sb = rt.sandboxes.get(ev.container.sandboxId);
        call.write({
          containerId: ev.container.id,
          containerEventType: ev.type as 'CONTAINER_CREATED_EVENT',
          createdAt: ev.at,
          podSandboxStatus: sb ? sandboxStatusToProto(sb) : null,
          containersStatuses: [containerStatusToProto(ev.container, rt.images.resolve(ev.container.imageId))],
        });
      };
      rt.events.on('container', onEvent);
      const done = () => rt.events.off('container', onEvent);
      call.on('cancelled', done);
      call.on('close', done);
      call.on('error', done);
    },
  };

  const image: ImageServiceHandlers = {
    ListImages: I(
      'ListImages',
      (req) => ({ request: { filter: req.filter?.image?.image || undefined } }),
      (req) => {
        const want = req.filter?.image?.image;
        const list = want ? [rt.images.resolve(want)].filter((i) => i !== undefined) : rt.images.list();
        return { response: { images: list.map(imageToProto) } };
      },
    ),
    ImageStatus: I(
      'ImageStatus',
      (req) => ({ request: { image: req.image?.image } }),
      (req) => {
        const ref = req.image?.image;
        if (!ref) throw invalid('image.image', 'must not be empty');
        const img = rt.images.resolve(ref);
        const info: Record<string, string> = {};
        if (img && req.verbose)
          info.info = JSON.stringify({
            imageSpec: { config: { Entrypoint: img.def.entrypoint, Cmd: img.def.cmd, Env: Object.entries(img.def.env).map(([k, v]) => `${k}=${v}`), WorkingDir: img.def.workingDir } },
          });
        return { response: { image: img ? imageToProto(img) : null, info } };
      },
    ),
    PullImage: I(
      'PullImage',
      (req) => {
        const m = req.sandboxConfig?.metadata;
        return { request: { image: req.image?.image, auth: req.auth ? 'present' : 'none' }, ...(m ? { pod: { name: m.name, namespace: m.namespace, uid: m.uid } } : {}) };
      },
      async (req) => {
        const ref = req.image?.image;
        if (!ref) throw invalid('image.image', 'must not be empty');
        const img = await rt.images.pull(ref, req.auth ?? undefined);
        return { response: { imageRef: img.id } };
      },
    ),
    RemoveImage: I(
      'RemoveImage',
      (req) => ({ request: { image: req.image?.image } }),
      (req) => {
        const ref = req.image?.image;
        if (!ref) throw invalid('image.image', 'must not be empty');
        rt.images.remove(ref);
        return { response: {} };
      },
    ),
    ImageFsInfo: I('ImageFsInfo', none, () => {
      const ts = nowNanos().toString();
      return {
        response: {
          imageFilesystems: [
            {
              timestamp: ts,
              fsId: { mountpoint: '/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs' },
              usedBytes: { value: String(rt.images.totalBytes()) },
              inodesUsed: { value: String(rt.images.list().length * 100) },
            },
          ],
          containerFilesystems: [],
        },
      };
    }),
  };
  return { runtime, image };
}

async function podStats(rt: Runtime, sandboxId: string) {
  const sb = rt.sandboxes.get(sandboxId)!;
  const containers = await Promise.all(rt.listContainers({ podSandboxId: sb.id, state: 'CONTAINER_RUNNING' }).map((c) => containerStatsToProto(rt, c)));
  const sum = (f: (s: (typeof containers)[number]) => string | undefined) => containers.reduce((a, s) => a + BigInt(f(s) ?? '0'), 0n).toString();
  const ts = nowNanos().toString();
  return {
    attributes: { id: sb.id, metadata: sb.config.metadata, labels: sb.config.labels, annotations: sb.config.annotations },
    linux: {
      cpu: {
        timestamp: ts,
        usageCoreNanoSeconds: { value: sum((s) => String(s.cpu?.usageCoreNanoSeconds?.value ?? '0')) },
        usageNanoCores: { value: sum((s) => String(s.cpu?.usageNanoCores?.value ?? '0')) },
      },
      memory: { timestamp: ts, workingSetBytes: { value: sum((s) => String(s.memory?.workingSetBytes?.value ?? '0')) }, usageBytes: { value: sum((s) => String(s.memory?.usageBytes?.value ?? '0')) } },
      process: { timestamp: ts, processCount: { value: String(containers.length) } },
      containers,
    },
  };
}

// The kubelet relists every second: ListPodSandbox and ListContainers answer
// from per-object encodings cached by state (the only field of a listed CRI
// PodSandbox or Container that changes), joined as a repeated field is on the
// wire (tag+length+bytes per element).
const ENCODED = Symbol('kubelab.encoded');

/** One list method's cached element encodings. */
interface ListEncoding<T extends object> {
  readonly method: 'ListPodSandbox' | 'ListContainers';
  readonly field: string;
  readonly chunks: WeakMap<T, { state: string; chunk: Buffer }>;
}

const sandboxEncoding: ListEncoding<Sandbox> = { method: 'ListPodSandbox', field: 'items', chunks: new WeakMap() };
const containerEncoding: ListEncoding<Container> = { method: 'ListContainers', field: 'containers', chunks: new WeakMap() };

/** The method's own serializer: one element's encoding is the answer holding just it (tag+length+bytes). */
const plainSerializer = (method: ListEncoding<object>['method']) => criProto().runtime.v1.RuntimeService.service[method].responseSerialize as (msg: unknown) => Buffer;

/** The answer to a list call: its encoding joined from the cache, and the plain message for any other reader. */
function encodedList<T extends { state: string }, P>(enc: ListEncoding<T>, list: T[], toProto: (item: T) => P): Record<string, P[]> {
  const encodeOne = plainSerializer(enc.method);
  const chunks: Buffer[] = [];
  for (const item of list) {
    let hit = enc.chunks.get(item);
    if (!hit || hit.state !== item.state) {
      hit = { state: item.state, chunk: encodeOne({ [enc.field]: [toProto(item)] }) };
      enc.chunks.set(item, hit);
    }
    chunks.push(hit.chunk);
  }
  const lazy = { [ENCODED]: chunks } as unknown as Record<string, P[]>;
  Object.defineProperty(lazy, enc.field, { enumerable: true, get: () => list.map(toProto) });
  return lazy;
}

// grpc-js copies a serialized answer into its framed message at once
// (serializeMessage), so the join can reuse one buffer: a relist of a
// thousand containers allocates no 600 KB buffer of its own each second
// (external memory that drove a mark-compact every few relists).
let scratch = Buffer.alloc(0);

function joinIntoScratch(chunks: Buffer[]): Buffer {
  let len = 0;
  for (const c of chunks) len += c.length;
  if (scratch.length < len) scratch = Buffer.allocUnsafe(Math.max(len, scratch.length * 2));
  let at = 0;
  for (const c of chunks) at += c.copy(scratch, at);
  return scratch.subarray(0, len);
}

/** The RuntimeService definition with ListPodSandbox and ListContainers serialising from the cache. */
export function withFastLists(def: grpc.ServiceDefinition): grpc.ServiceDefinition {
  const fast = (enc: ListEncoding<never>): grpc.MethodDefinition<unknown, unknown> => {
    const m = def[enc.method]!;
    const plain = m.responseSerialize as (msg: unknown) => Buffer;
    return {
      ...m,
      responseSerialize: (msg: unknown) => {
        const chunks = (msg as Record<symbol, Buffer[] | undefined>)[ENCODED];
        return chunks ? joinIntoScratch(chunks) : plain(msg);
      },
    };
  };
  return { ...def, ListPodSandbox: fast(sandboxEncoding), ListContainers: fast(containerEncoding) };
}
