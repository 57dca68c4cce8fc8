// The kubelab container runtime (mock containerd): CRI runtime.v1 over a unix
// socket, health and metrics over HTTP. startContainerd() runs it in-process
// for the local runner and tests; main.ts is the process entry.

import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { createServer } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { createLogger, newMetricsRegistry, serveHealth, type Logger } from '@kubelab/component-base';
import { traceServerHandlers, type Tracing } from '@kubelab/tracing';
import { containerdNatsIdentity, type NatsClientTls } from '@kubelab/nats';
import { criProto } from '@kubelab/proto';
import { Gauge, type Registry } from 'prom-client';
import type { NetworkMode } from './network.js';
import { logSink, natsSink, type RecordSink } from './record.js';
import { Runtime } from './runtime.js';
import { buildServices, withFastLists } from './server.js';
import { AuthorityFront } from './authority-front.js';
import { HostPorts } from './hostports.js';
import { Attachment, imagePrompt, stdinShell } from './streaming/attach.js';
import { StreamingServer } from './streaming/server.js';
import { dialSandboxPort } from './streaming/dial.js';
import { Launcher } from './shim/launcher.js';
import { SocketLbMaps, type L4 } from './socket-lb.js';
import { startPodMap } from './pod-map.js';

export interface ContainerdOptions {
  /** Node name, used in call records and NATS subjects. */
  nodeName: string;
  /** CRI socket path (containerd's grpc.address). */
  address?: string;
  /** State directory (containerd's root); holds the state file. */
  root?: string;
  /** HTTP port for /healthz, /readyz, /livez, /metrics (0 picks one; -1: no health server, as for the runtimes of hollow nodes). */
  healthPort?: number;
  healthHost?: string;
  /**
   * Serve the socket through the `:authority` front (authority-front.ts: gRPC-Go clients before 1.57 send the
   * socket path there); default true. Off for hollow nodes, whose only client is this project's kubelet: the
   * front re-encodes every request's headers in JavaScript.
   */
  authorityFront?: boolean;
  /** The process_* and nodejs_* metrics in /metrics (default true; false for the many runtimes of one hollow-node process). */
  processMetrics?: boolean;
  /** Publish CRI call records here; without it they are debug-logged. */
  natsUrl?: string;
  /**
   * Build a record of each CRI call (default true). Off for hollow nodes: they publish none (no NATS) and their
   * runtimes' logs are at info, so each record would be built to be dropped.
   */
  callRecords?: boolean;
  /** --nats-ca-file, --nats-cert-file, --nats-key-file as PEM: mutual TLS as kubelab:containerd:<nodeName>. */
  natsTls?: NatsClientTls;
  /** Container time runs this many times faster than wall time. */
  timeScale?: number;
  /** Simulated registry bandwidth in bytes/s (0: instant pulls). */
  pullBytesPerSecond?: number;
  networkMode?: NetworkMode;
  /** The network namespace is the project's own (compose node): pod CIDRs are not checked (pod-range.ts). */
  podNetworkOwned?: boolean;
  /** Address hostPort mappings without a host_ip are served on (the node's address; default 127.0.0.1). */
  hostPortAddress?: string;
  /** Pod CIDR before the kubelet sends one via UpdateRuntimeConfig. */
  podCidr?: string;
  logger?: Logger;
  /**
   * From setupTracing({ serviceName: 'containerd', node }): every CRI call runs in a
   * SERVER span named like the RPC (`runtime.v1.RuntimeService/RunPodSandbox`)
   * continuing the kubelet's traceparent; call records carry its ids. Default: off.
   */
  tracing?: Tracing;
  /** The streaming server for Exec (containerd's stream_server_address/port; default 127.0.0.1 and a free port). */
  streamServerAddress?: string;
  streamServerPort?: number;
  /**
   * Run each sandbox's containers in a shim process of its own
   * (containerd-shim-runc-v2, shim/) that outlives containerd, under the
   * state directory beside the socket (/run/containerd). Off: containers run
   * in this process and end with it (tests of other components).
   */
  shims?: boolean;
  /**
   * Loopback mode: the node's socket-LB directory (the local runner's pod
   * network, socket-lb.ts). The runtime keeps every node's pod address map
   * there (shared on NATS, pod-map.ts) and kube-proxy its Service frontends;
   * containers' connects and DNS queries are translated through both.
   */
  socketLbDir?: string;
}

export interface ContainerdHandle {
  socketPath: string;
  /** -1 without a health server. */
  healthPort: number;
  runtime: Runtime;
  /** Base URL of the streaming server (`http://127.0.0.1:PORT`). */
  streamingUrl: string;
  stop(): Promise<void>;
}

export const DEFAULT_ADDRESS = '/run/containerd/containerd.sock';
export const DEFAULT_ROOT = '/var/lib/containerd';

export async function startContainerd(opts: ContainerdOptions): Promise<ContainerdHandle> {
  const log = opts.logger ?? createLogger({ component: 'containerd', node: opts.nodeName, style: 'logrus' });
  const socketPath = opts.address ?? DEFAULT_ADDRESS;
  const networkMode = opts.networkMode ?? 'loopback';
  const promptFor = imagePrompt;
  const socketLbDir = networkMode === 'loopback' ? opts.socketLbDir : undefined;
  const socketLb = socketLbDir ? new SocketLbMaps(socketLbDir) : undefined;
  const runtime = new Runtime({
    root: opts.root ?? DEFAULT_ROOT,
    timeScale: opts.timeScale && opts.timeScale > 0 ? opts.timeScale : 1,
    networkMode,
    pullBytesPerSecond: opts.pullBytesPerSecond ?? 0,
    ...(opts.podCidr ? { podCidr: opts.podCidr } : {}),
    podNetworkOwned: opts.podNetworkOwned ?? false,
    onWarning: (msg, fields) => log.warn(msg, fields),
    mainProcess: (spec, proc) => stdinShell(spec.stdio, proc, promptFor(spec.image)),
    ...(socketLb ? { route: (ip: string, port: number, proto: L4, src?: string) => socketLb.decide(ip, port, proto, src) } : {}),
    ...(opts.shims
      ? {
          shims: new Launcher({
            stateDir: dirname(socketPath),
            address: socketPath,
            networkMode,
            timeScale: opts.timeScale && opts.timeScale > 0 ? opts.timeScale : 1,
            streamServerAddress: opts.streamServerAddress ?? '127.0.0.1',
            ...(socketLbDir ? { socketLbDir } : {}),
          }),
        }
      : {}),
  });
  const recovered = await runtime.recover();
  if (recovered.sandboxes || recovered.containers) log.info('recovered runtime state', recovered);

  const podMap = socketLbDir
    ? await startPodMap({
        node: opts.nodeName,
        dir: socketLbDir,
        sandboxes: () => runtime.sandboxes.values(),
        log,
        ...(opts.natsUrl ? { natsUrl: opts.natsUrl, identity: containerdNatsIdentity(opts.nodeName) } : {}),
        ...(opts.natsTls ? { tls: opts.natsTls } : {}),
      })
    : undefined;
  const sink: RecordSink | undefined = opts.natsUrl ? await natsSink(opts.natsUrl, log, containerdNatsIdentity(opts.nodeName), opts.natsTls) : (opts.callRecords ?? true) ? logSink(log) : undefined;
  // No health server: nothing serves /metrics, so no call is counted or timed for it.
  const metrics = (opts.healthPort ?? 0) < 0 ? undefined : newMetricsRegistry({ component: 'containerd', node: opts.nodeName }, { processMetrics: opts.processMetrics ?? true });
  if (metrics) registerRuntimeGauges(metrics, runtime);

  const tracing = opts.tracing?.enabled ? opts.tracing : undefined;
  const streaming = await StreamingServer.start({
    host: opts.streamServerAddress ?? '127.0.0.1',
    port: opts.streamServerPort ?? 0,
    target: (id) => {
      const { proc, image } = runtime.execProcess(id);
      const prompt = promptFor(image);
      return { execStream: (argv, o) => proc.execStream(argv, o), execCwd: proc.execCwd, ...(prompt ? { prompt } : {}) };
    },
    attach: (req, write) => {
      const { proc, config, stdinShell: shell } = runtime.execProcess(req.containerId);
      return new Attachment({ config, shell }, req, write, proc);
    },
    portForward: (id, port) => dialSandboxPort(runtime, id, port),
    onError: (msg, fields) => log.warn(msg, fields),
  });
  const hostPorts = new HostPorts(runtime, opts.hostPortAddress ?? '127.0.0.1', (msg, fields) => log.warn(msg, fields));
  // Sandboxes recovered from the state file serve their mappings again.
  for (const sb of runtime.listSandboxes({ state: 'SANDBOX_READY' })) await hostPorts.open(sb);
  const services = buildServices({ runtime, node: opts.nodeName, networkMode, ...(sink ? { sink } : {}), log, ...(metrics ? { metrics } : {}), streaming, hostPorts, ...(tracing ? { tracing } : {}) });
  const proto = criProto();
  const server = new grpc.Server({ 'grpc.max_receive_message_length': 16 * 1024 * 1024 });
  const runtimeDef = withFastLists(proto.runtime.v1.RuntimeService.service);
  const imageDef = proto.runtime.v1.ImageService.service;
  const runtimeImpl = services.runtime as unknown as grpc.UntypedServiceImplementation;
  const imageImpl = services.image as unknown as grpc.UntypedServiceImplementation;
  server.addService(runtimeDef, tracing ? traceServerHandlers(tracing, runtimeDef, runtimeImpl) : runtimeImpl);
  server.addService(imageDef, tracing ? traceServerHandlers(tracing, imageDef, imageImpl) : imageImpl);

  mkdirSync(dirname(socketPath), { recursive: true });
  rmSync(socketPath, { force: true });
  // grpc-js serves the connections the authority front hands it (authority-front.ts: old gRPC-Go clients send the socket path as :authority).
  const withFront = opts.authorityFront ?? true;
  const injector = withFront ? server.createConnectionInjector(grpc.ServerCredentials.createInsecure()) : undefined;
  const front = injector ? createServer((socket) => injector.injectConnection(new AuthorityFront(socket))) : undefined;
  await new Promise<void>((resolve, reject) => {
    if (!front) {
      server.bindAsync(`unix://${socketPath}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(new Error(`listen on unix://${socketPath}: ${err.message}`)) : resolve()));
      return;
    }
    front.once('error', (err) => reject(new Error(`listen on unix://${socketPath}: ${err.message}`)));
    front.listen(socketPath, () => resolve());
  });

  let serving = true;
  const health =
    (opts.healthPort ?? 0) < 0
      ? undefined
      : await serveHealth({
          host: opts.healthHost ?? '127.0.0.1',
          port: opts.healthPort ?? 0,
          livez: { 'cri-server': () => serving },
          readyz: { 'cri-server': () => serving },
          ...(metrics ? { metrics } : {}),
        });
  log.info('serving CRI', { address: socketPath, streamingUrl: streaming.baseUrl, healthPort: health?.port ?? -1, networkMode, timeScale: opts.timeScale ?? 1 });

  let stopped = false;
  return {
    socketPath,
    healthPort: health?.port ?? -1,
    runtime,
    streamingUrl: streaming.baseUrl,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      serving = false;
      // Graceful first; open GetContainerEvents streams never end by themselves,
      // so after a short grace the remaining calls are cut (as containerd does on exit).
      await Promise.race([new Promise<void>((resolve) => server.tryShutdown(() => resolve())), new Promise<void>((resolve) => setTimeout(resolve, 1000).unref())]);
      server.forceShutdown();
      front?.close();
      hostPorts.closeAll();
      injector?.destroy();
      await streaming.close();
      await runtime.close();
      await sink?.close();
      await podMap?.close();
      await health?.close();
      rmSync(socketPath, { force: true });
    },
  };
}

export { Runtime } from './runtime.js';
export { CATALOG, PRIVATE_IMAGE_AUTH, NGINX_INDEX, type ImageDef } from '@kubelab/images';
export { formatCriLines } from './logs.js';
export type { NetworkMode } from './network.js';

/** The runtime's gauges of what it holds (kubelab_cri_containers, kubelab_cri_sandboxes), read at each scrape. */
function registerRuntimeGauges(metrics: Registry, runtime: Runtime): void {
  new Gauge({
    name: 'kubelab_cri_containers',
    help: 'Containers known to the runtime, by state.',
    labelNames: ['state'],
    registers: [metrics],
    collect() {
      this.reset();
      for (const c of runtime.containers.values()) this.inc({ state: c.state });
    },
  });
  new Gauge({
    name: 'kubelab_cri_sandboxes',
    help: 'Pod sandboxes known to the runtime, by state.',
    labelNames: ['state'],
    registers: [metrics],
    collect() {
      this.reset();
      for (const s of runtime.sandboxes.values()) this.inc({ state: s.state });
    },
  });
}
