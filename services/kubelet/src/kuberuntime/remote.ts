// The CRI client over gRPC (upstream cri-client remote_runtime.go /
// remote_image.go): runtime.v1 RuntimeService and ImageService on the
// runtime's socket, with int64 nanosecond timestamps turned into
// milliseconds and gRPC errors into CriClientError.

import * as grpc from '@grpc/grpc-js';
import {
  decodeSandboxNetwork,
  goDialError,
  grpcCodeName,
  nanosToMs,
  type CriAttachResponse__Output,
  type CriPortForwardResponse__Output,
  type CriContainerEventResponse__Output,
  type CriContainerStatusResponse__Output,
  type CriCreateContainerResponse__Output,
  type CriContainerStatus__Output,
  type CriExecResponse__Output,
  type CriExecSyncResponse__Output,
  type CriImage__Output,
  type CriImageStatusResponse__Output,
  type CriListContainerStatsResponse__Output,
  type CriListContainersResponse__Output,
  type CriListImagesResponse__Output,
  type CriPullImageResponse__Output,
  type CriRunPodSandboxResponse__Output,
  type CriStatusResponse__Output,
  type CriVersionResponse__Output,
  type CriListPodSandboxResponse__Output,
  type CriPodSandbox__Output,
  type CriPodSandboxStatus__Output,
  type CriPodSandboxStatusResponse__Output,
  relistingCriClients,
  type SandboxPortMap,
} from '@kubelab/proto';
import { callTracedUnary, injectMetadata, tracingOfInterceptors, type Context, type UnaryMethod } from '@kubelab/tracing';
import {
  CriClientError,
  type Container,
  type ContainerConfig,
  type ContainerEvent,
  type ContainerState,
  type ContainerStatus,
  type Image,
  type PodSandbox,
  type PodSandboxConfig,
  type PodSandboxState,
  type PodSandboxStatus,
  type RuntimeService,
} from './cri.js';

function wrap(err: unknown, method: string): CriClientError {
  const e = err as grpc.ServiceError;
  // A failed call always has a code other than OK (status.Code of an error without one is Unknown).
  const code = typeof e?.code === 'number' && e.code !== grpc.status.OK ? grpcCodeName(e.code) : 'Unknown';
  const details = e?.details ?? e?.message ?? String(err);
  // A runtime that cannot be reached reads as grpc-go says it (the kubelet's events, logs and node conditions quote it).
  const desc = code === 'Unavailable' ? (goDialError(details) ?? details) : details;
  return new CriClientError(code, desc, { cause: new Error(`${method}: ${e?.message}`) });
}

/** Listen address → gRPC target: `unix:///run/containerd/containerd.sock` or a bare path. */
export function criTarget(endpoint: string): string {
  if (endpoint.startsWith('unix://')) return `unix://${endpoint.slice('unix://'.length)}`;
  if (endpoint.startsWith('/')) return `unix://${endpoint}`;
  return endpoint;
}

/** Where a sandbox's container ports are served, from its verbose status. */
export interface SandboxAddress {
  ready: boolean;
  /** The pod IP. */
  ip: string;
  /** `loopback` network mode: the address serving each container port; undefined in pod-ip mode (the pod IP serves them). */
  ports: SandboxPortMap | undefined;
}

export interface RemoteRuntime extends RuntimeService {
  /** Verbose sandbox status: its state, pod IP and, in `loopback` network mode, where its container ports are served. */
  sandboxAddress(id: string): Promise<SandboxAddress>;
}

/** timeoutMs: --runtime-request-timeout, upstream's 2 minutes by default. */
export function connectRemoteRuntime(endpoint: string, timeoutMs = 120_000, interceptors: grpc.Interceptor[] = []): RemoteRuntime {
  const target = criTarget(endpoint);
  // interceptors: grpcClientInterceptors(tracing) — a CLIENT span per CRI call (upstream KEP-2831's traced CRI client).
  const options = {
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
    'grpc.initial_reconnect_backoff_ms': 200,
    'grpc.max_reconnect_backoff_ms': 2000,
    ...(interceptors.length ? { interceptors } : {}),
  };
  // The relists (PLEG every second) decode only the sandboxes and containers that changed.
  const { runtime: rs, image: is } = relistingCriClients(target, grpc.credentials.createInsecure(), options);

  // The tracing behind grpcClientInterceptors(tracing): CRI calls start their CLIENT span
  // here (no interceptor work per call); the event stream keeps the interceptor.
  const tracing = tracingOfInterceptors(interceptors);

  /**
   * Calls a unary method with a deadline, mapping errors. Traced, its CLIENT
   * span's parent is `traceContext` (a view's, see withTraceContext), else
   * the active context: no context needs to stay active across awaits.
   */
  function callWith<Req, Res>(traceContext: Context | undefined, client: grpc.Client, method: string, req: Req, deadlineMs = timeoutMs): Promise<Res> {
    return new Promise((resolve, reject) => {
      const fn = (client as unknown as Record<string, UnaryMethod<Req, Res>>)[method]!;
      const done = (err: grpc.ServiceError | null, res?: Res) => (err ? reject(wrap(err, method)) : resolve(res as Res));
      const opts: grpc.CallOptions = { deadline: Date.now() + deadlineMs };
      if (tracing) return void callTracedUnary(tracing, client, fn, req, new grpc.Metadata(), opts, traceContext, done);
      // Export off: the pod's trace context (a view's) still travels in the metadata, so the
      // runtime's call records carry the pod start's trace id (`kubelab trace` groups by it).
      if (traceContext) return void fn.call(client, req, injectMetadata(new grpc.Metadata(), traceContext), opts, done);
      // No context: no tracing interceptor is installed either, so there is nothing to hand on.
      (fn as unknown as (r: Req, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, r?: Res) => void) => void).call(client, req, opts, done);
    });
  }

  // PodSandbox (ListPodSandbox) and PodSandboxStatus share every field but the network: one conversion for both.
  function toSandbox(s: CriPodSandbox__Output): PodSandbox;
  function toSandbox(s: CriPodSandboxStatus__Output): PodSandboxStatus;
  function toSandbox(s: CriPodSandbox__Output | CriPodSandboxStatus__Output): PodSandboxStatus {
    const sb: PodSandboxStatus = {
      id: s.id,
      metadata: s.metadata ?? { name: '', uid: '', namespace: '', attempt: 0 },
      state: s.state as PodSandboxState,
      createdAt: nanosToMs(s.createdAt),
      labels: s.labels ?? {},
      annotations: s.annotations ?? {},
    };
    if ('network' in s && s.network) sb.network = { ip: s.network.ip, additionalIps: s.network.additionalIps.map((p) => p.ip) };
    return sb;
  }

  const toStatus = (s: CriContainerStatus__Output): ContainerStatus => ({
    id: s.id,
    metadata: s.metadata ?? { name: '', attempt: 0 },
    state: s.state as ContainerState,
    createdAt: nanosToMs(s.createdAt),
    startedAt: nanosToMs(s.startedAt),
    finishedAt: nanosToMs(s.finishedAt),
    exitCode: s.exitCode,
    image: s.image?.image ?? '',
    imageRef: s.imageRef || s.imageId, // the pod's imageID is the CRI image_ref (kubelet_pods.go), the repo digest containerd answers
    reason: s.reason,
    message: s.message,
    labels: s.labels ?? {},
    annotations: s.annotations ?? {},
    logPath: s.logPath,
  });

  const toImage = (i: CriImage__Output): Image => ({
    id: i.id,
    repoTags: i.repoTags,
    repoDigests: i.repoDigests,
    size: Number(i.size),
    ...(i.uid ? { uid: Number(i.uid.value) } : {}),
    ...(i.username ? { username: i.username } : {}),
  });

  const sandboxConfig = (c: PodSandboxConfig) => ({ ...c, portMappings: c.portMappings.map((p) => ({ ...p })) });

  // One view per trace context, all on the same two clients; the untraced view is the runtime itself.
  const view = (traceContext: Context | undefined): RemoteRuntime => {
    const call = <Req, Res>(client: grpc.Client, method: string, req: Req, deadlineMs = timeoutMs): Promise<Res> => callWith<Req, Res>(traceContext, client, method, req, deadlineMs);
    return {
      withTraceContext: (ctx: Context) => view(ctx),
      async version() {
        return call<object, CriVersionResponse__Output>(rs, 'Version', { version: 'v1' });
      },
      async status() {
        const r = await call<object, CriStatusResponse__Output>(rs, 'Status', { verbose: false });
        return r.status?.conditions ?? [];
      },
      async updateRuntimeConfig(podCidr) {
        await call(rs, 'UpdateRuntimeConfig', { runtimeConfig: { networkConfig: { podCidr } } });
      },
      async runPodSandbox(config) {
        const r = await call<object, CriRunPodSandboxResponse__Output>(rs, 'RunPodSandbox', { config: sandboxConfig(config), runtimeHandler: '' }, 4 * 60_000);
        return r.podSandboxId;
      },
      async stopPodSandbox(id) {
        await call(rs, 'StopPodSandbox', { podSandboxId: id }, 4 * 60_000);
      },
      async removePodSandbox(id) {
        await call(rs, 'RemovePodSandbox', { podSandboxId: id });
      },
      async podSandboxStatus(id): Promise<PodSandboxStatus> {
        const r = await call<object, CriPodSandboxStatusResponse__Output>(rs, 'PodSandboxStatus', { podSandboxId: id, verbose: false });
        if (!r.status) throw new CriClientError('Unknown', `PodSandboxStatus of ${id} returned no status`);
        return toSandbox(r.status);
      },
      async sandboxAddress(id) {
        const r = await call<object, CriPodSandboxStatusResponse__Output>(rs, 'PodSandboxStatus', { podSandboxId: id, verbose: true });
        const net = decodeSandboxNetwork(r.info);
        // In pod-ip mode the pod IP itself serves the ports: nothing to map.
        return { ready: r.status?.state === 'SANDBOX_READY', ip: r.status?.network?.ip ?? '', ports: net?.mode === 'loopback' ? net.ports : undefined };
      },
      async listPodSandbox(filter) {
        const r = await call<object, CriListPodSandboxResponse__Output>(rs, 'ListPodSandbox', { filter: filter?.labelSelector ? { labelSelector: filter.labelSelector } : null });
        return r.items.map((s) => toSandbox(s));
      },
      async createContainer(podSandboxId, config: ContainerConfig, sandboxConfigIn) {
        const r = await call<object, CriCreateContainerResponse__Output>(rs, 'CreateContainer', { podSandboxId, config, sandboxConfig: sandboxConfig(sandboxConfigIn) }, 4 * 60_000);
        return r.containerId;
      },
      async startContainer(id) {
        await call(rs, 'StartContainer', { containerId: id }, 4 * 60_000);
      },
      async stopContainer(id, timeout) {
        // The call may take the whole grace period.
        await call(rs, 'StopContainer', { containerId: id, timeout }, timeoutMs + timeout * 1000);
      },
      async removeContainer(id) {
        await call(rs, 'RemoveContainer', { containerId: id });
      },
      async listContainers(filter) {
        const f = filter ? { ...(filter.podSandboxId ? { podSandboxId: filter.podSandboxId } : {}), ...(filter.labelSelector ? { labelSelector: filter.labelSelector } : {}) } : null;
        const r = await call<object, CriListContainersResponse__Output>(rs, 'ListContainers', { filter: f });
        return r.containers.map((c): Container => ({
          id: c.id,
          podSandboxId: c.podSandboxId,
          metadata: c.metadata ?? { name: '', attempt: 0 },
          image: c.image?.image ?? '',
          imageRef: c.imageRef || c.imageId,
          state: c.state as ContainerState,
          createdAt: nanosToMs(c.createdAt),
          labels: c.labels ?? {},
          annotations: c.annotations ?? {},
        }));
      },
      async containerStatus(id) {
        const r = await call<object, CriContainerStatusResponse__Output>(rs, 'ContainerStatus', { containerId: id, verbose: false });
        if (!r.status) throw new CriClientError('Unknown', `ContainerStatus of ${id} returned no status`);
        return toStatus(r.status);
      },
      async reopenContainerLog(id) {
        await call(rs, 'ReopenContainerLog', { containerId: id });
      },
      async execSync(id, cmd, timeout) {
        const r = await call<object, CriExecSyncResponse__Output>(rs, 'ExecSync', { containerId: id, cmd, timeout }, timeout > 0 ? timeout * 1000 + 2000 : timeoutMs);
        return { stdout: Buffer.from(r.stdout ?? []), stderr: Buffer.from(r.stderr ?? []), exitCode: r.exitCode };
      },
      async exec(req) {
        const r = await call<object, CriExecResponse__Output>(rs, 'Exec', req);
        return r.url;
      },
      async attach(req) {
        const r = await call<object, CriAttachResponse__Output>(rs, 'Attach', req);
        return r.url;
      },
      async portForward(req) {
        const r = await call<object, CriPortForwardResponse__Output>(rs, 'PortForward', req);
        return r.url;
      },
      async listContainerStats() {
        const r = await call<object, CriListContainerStatsResponse__Output>(rs, 'ListContainerStats', { filter: null });
        return r.stats.map((s) => ({
          id: s.attributes?.id ?? '',
          labels: s.attributes?.labels ?? {},
          workingSetBytes: Number(s.memory?.workingSetBytes?.value ?? 0),
          writableLayerBytes: Number(s.writableLayer?.usedBytes?.value ?? 0),
          inodesUsed: Number(s.writableLayer?.inodesUsed?.value ?? 0),
          ...(s.cpu ? { cpu: { usageCoreNanoSeconds: Number(s.cpu.usageCoreNanoSeconds?.value ?? 0), usageNanoCores: Number(s.cpu.usageNanoCores?.value ?? 0) } } : {}),
          memoryUsageBytes: Number(s.memory?.usageBytes?.value ?? 0),
          rssBytes: Number(s.memory?.rssBytes?.value ?? 0),
        }));
      },
      getContainerEvents(onEvent, onEnd) {
        const stream = rs.GetContainerEvents({});
        let ended = false;
        const end = (err?: Error) => {
          if (ended) return;
          ended = true;
          onEnd(err);
        };
        stream.on('data', (e: CriContainerEventResponse__Output) => {
          const ev: ContainerEvent = { containerId: e.containerId, type: e.containerEventType as ContainerEvent['type'] };
          const uid = e.podSandboxStatus?.metadata?.uid;
          if (uid) ev.podUid = uid;
          onEvent(ev);
        });
        stream.on('error', (err: Error) => end(err));
        stream.on('end', () => end());
        return () => {
          ended = true;
          stream.cancel();
        };
      },
      async listImages() {
        const r = await call<object, CriListImagesResponse__Output>(is, 'ListImages', { filter: null });
        return r.images.map(toImage);
      },
      async imageStatus(image) {
        const r = await call<object, CriImageStatusResponse__Output>(is, 'ImageStatus', { image: { image }, verbose: false });
        return r.image ? toImage(r.image) : undefined;
      },
      async pullImage(image, auth, sandboxConfigIn) {
        const r = await call<object, CriPullImageResponse__Output>(
          is,
          'PullImage',
          { image: { image }, auth: auth ?? null, sandboxConfig: sandboxConfigIn ? sandboxConfig(sandboxConfigIn) : null },
          10 * 60_000,
        );
        return r.imageRef;
      },
      close() {
        rs.close();
        is.close();
      },
    };
  };
  return view(undefined);
}
