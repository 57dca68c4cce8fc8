// The kubelet's managers built from its config and dependencies (upstream
// pkg/kubelet/kubelet.go NewMainKubelet and its Dependencies struct): what
// each manager needs of the others is wired here, once, so the Kubelet
// itself keeps only the pod sources, the sync functions and housekeeping.

import type { Pod, Service } from '@kubelab/api';
import { kObj, type Logger } from '@kubelab/component-base';
import { realClock, type Clientset, type Clock, type EventBroadcaster, type SharedInformerFactory } from '@kubelab/client';
import type { Tracing } from '@kubelab/tracing';
import { Backoff } from './backoff.js';
import { RuntimeCache } from './container/runtime-cache.js';
import type { Recorder } from './events.js';
import { EvictionManager } from './eviction/manager.js';
import { collectSummary } from './eviction/stats.js';
import { StatsProvider } from './stats/provider.js';
import { ImageManager } from './images/image-manager.js';
import { pullSecretsFrom } from './images/pull-secrets.js';
import { evictionConfig, logRotatePolicy, nodeRootOf, type KubeletConfig } from './kubelet-config.js';
import { ContainerLogManager } from './logs/container-log-manager.js';
import { CriClientError, LABEL_POD_UID, type RuntimeService } from './kuberuntime/cri.js';
import { RuntimeManager, SYNC_ERROR_BACKOFF_MS } from './kuberuntime/manager.js';
import type { KubeletMetrics } from './metrics/metrics.js';
import { dialingProbeTransport, httpHookVia, type DialTarget } from './network/loopback.js';
import { NodeLeaseController, leaseAPI } from './nodelease/controller.js';
import { ImageList } from './images/image-list.js';
import { NodeStatusController } from './nodestatus/controller.js';
import { machineInfo } from './nodestatus/machine-info.js';
import type { MachineInfo } from './nodestatus/setters.js';
import { GenericPLEG, relistTiming, type PodLifecycleEvent } from './pleg/generic.js';
import { MirrorClient } from './pod/mirror-client.js';
import { MirrorPods } from './pod/mirror-pods.js';
import { PodManager, fullName } from './pod/pod-manager.js';
import { PodSyncStates } from './pod-sync-state.js';
import { PodSyncTracer } from './pod-sync-tracer.js';
import { PodWorkers, type PodWorkerQueue, type SyncFn, type SyncSlots } from './pod-workers.js';
import { ProberManager } from './prober/manager.js';
import { Prober, criProbeTransport } from './prober/prober.js';
import { RuntimeState } from './runtime-state.js';
import { StatusManager, podStatusAPI } from './status/manager.js';
import { PodStatusReporter } from './status/reporter.js';
import { untraced } from './untraced.js';
import { VolumeManager } from './volumemanager/manager.js';
import { apiObjectSource } from './volumemanager/sources.js';
import { ObjectManagers } from './objectcache/managers.js';
import { TokenManager } from './token/manager.js';
import { dnsSettings } from './network/dns.js';

export interface KubeletDeps {
  config: KubeletConfig;
  clientset: Clientset;
  informers: SharedInformerFactory;
  runtime: RuntimeService;
  /** Resolves pod-IP:port to where the runtime really serves it (kubelab loopback network). */
  dialTarget?: DialTarget;
  broadcaster: Pick<EventBroadcaster, 'newRecorder'>;
  log: Logger;
  clock?: Clock;
  /** Each pod sync runs in a span continuing the pod's trace (absent = no spans). */
  tracing?: Tracing;
  /** Running pods/containers and pod start duration (absent = not recorded). */
  metrics?: KubeletMetrics;
  /** The host as cadvisor would describe it (absent: read from the host). */
  machine?: MachineInfo;
  /** The pod workers that run syncPod (absent: one serial worker per pod). */
  podWorkers?: (sync: SyncFn, onError: (uid: string, err: unknown) => void) => PodWorkerQueue;
  /** Sync admission shared by the hollow kubelets of one process (absent: every sync starts at once). */
  podSyncSlots?: SyncSlots;
  /** Whether each pod's managed /etc/hosts is written under the root dir (absent: true; the fake-runtime tests have no root dir). */
  managedHostsFile?: boolean;
}

/** What the managers call back into the Kubelet for: its sync function, its informers' caches and its view of the active pods. */
export interface KubeletHooks {
  /** One pod's sync, run by the pod workers. */
  syncPod: SyncFn;
  /** The API pod by namespace/name from the pod informer (undefined before start()). */
  apiPod(key: string): Pod | undefined;
  /** Every Service, for the containers' service environment variables (upstream serviceLister). */
  services(): Service[];
  onPlegEvents(events: PodLifecycleEvent[]): void;
  /** Pods the eviction manager may evict (upstream GetActivePods). */
  activePods(): Pod[];
}

export interface KubeletManagers {
  clock: Clock;
  recorder: Recorder;
  /** Every pod sync goes through it: a span when tracing is on; the pod's trace context to the runtime either way. */
  syncTracer: PodSyncTracer | undefined;
  podManager: PodManager;
  podStates: PodSyncStates;
  podWorkers: PodWorkerQueue;
  runtimeState: RuntimeState;
  runtimeManager: RuntimeManager;
  runtimeCache: RuntimeCache;
  pleg: GenericPLEG;
  prober: ProberManager;
  statusManager: StatusManager;
  statusReporter: PodStatusReporter;
  mirrorPods: MirrorPods;
  volumes: VolumeManager;
  /** Projected service account tokens (upstream token.Manager); its expired entries are dropped every minute. */
  tokens: TokenManager;
  /** The watch-based ConfigMap and Secret managers; absent under the Get strategy. */
  objectManagers: ObjectManagers | undefined;
  eviction: EvictionManager;
  lease: NodeLeaseController;
  nodeStatus: NodeStatusController;
  /** The node's images, listed every 30 s (upstream's image manager cache). */
  images: ImageList;
  containerLogs: ContainerLogManager;
  /** The Summary API's source (/stats/summary, /metrics/resource). */
  stats: StatsProvider;
  /** Crash-loop and image-pull back-offs, garbage-collected by housekeeping. */
  crashBackoff: Backoff;
  imageBackoff: Backoff;
}

/** How old the PLEG's last relist may be for periodic readers to take its lists (upstream's runtime cache period, 2 s). */
export const RECENT_LISTS_MS = 2_000;

/** Builds the kubelet's managers (upstream NewMainKubelet). */
export function newKubeletManagers(deps: KubeletDeps, kubelet: KubeletHooks): KubeletManagers {
  const { config, runtime: rt, log } = deps;
  const clientset = deps.clientset;
  const clock = deps.clock ?? realClock;
  const scale = config.timeScale;
  const tracing = deps.tracing?.enabled ? deps.tracing : undefined;
  const rec = deps.broadcaster.newRecorder({ component: 'kubelet', host: config.nodeName });
  // Events are written by the broadcaster's own loop: keep them out of whichever pod's trace is active.
  const recorder: Recorder = { event: (ref, type, reason, message) => untraced(() => rec.event(ref, type, reason, message)) };
  const crashBackoff = new Backoff(10_000 / scale, 300_000 / scale, clock);
  const imageBackoff = new Backoff(10_000 / scale, 300_000 / scale, clock);
  const machine = deps.machine ?? machineInfo(config);
  const runtimeState = new RuntimeState(rt, clock, log, scale);
  const podManager = new PodManager();
  const podStates = new PodSyncStates();

  const statusManager = new StatusManager(podStatusAPI(clientset, !!tracing), log, (uid) => {
    const d = podManager.get(uid);
    if (!d) return undefined;
    return d.static ? podManager.mirrorOf(d.pod) : kubelet.apiPod(fullName(d.pod));
  });
  const transport = criProbeTransport(rt);
  const probe = new Prober(dialingProbeTransport(transport, deps.dialTarget), recorder, scale, log);
  const prober = new ProberManager(probe, statusManager, clock, true, scale, (uid, id) => podStates.containerStartedAt(uid, id));
  const statusReporter = new PodStatusReporter({
    podManager,
    podStates,
    statusManager,
    prober,
    runtimeName: () => runtimeState.name,
    nodeIP: config.nodeIP,
    timeScale: scale,
    recorder,
    clock,
    observePodStart: (seconds) => deps.metrics?.observePodStart(seconds),
  });
  // Liveness/startup failures restart containers; readiness changes the status.
  for (const rm of [prober.liveness, prober.startup, prober.readiness]) rm.onUpdate((u) => podWorkers.update(u.podUid));

  // ConfigMaps and Secrets: from watch-fed caches (upstream's default Watch strategy), or read from the apiserver on use (Get).
  const objectManagers = config.configMapAndSecretChangeDetectionStrategy === 'Get' ? undefined : new ObjectManagers({ clientset, clock, syncFrequencyMs: config.syncFrequencyMs, logger: log });
  const objects = objectManagers?.source ?? apiObjectSource(clientset);
  const allocatable = () => ({ ...(nodeStatus.lastStatus?.allocatable ?? {}) });
  // Projected service account tokens, requested from the apiserver and refreshed (upstream token.Manager).
  const tokens = new TokenManager((ns, name, tr) => clientset.core.serviceAccounts(ns).createToken(name, tr), clock);
  const volumes = new VolumeManager({ rootDir: config.rootDir, sources: objects, tokens, recorder, clock, allocatable, timeScale: scale });
  const runtimeManager = new RuntimeManager({
    rt,
    images: new ImageManager(rt, imageBackoff, recorder, clock),
    recorder,
    crashBackoff,
    syncErrorBackoffMs: SYNC_ERROR_BACKOFF_MS / scale,
    clock,
    podLogsDir: config.podLogsDir,
    runtimeName: runtimeState.name,
    nodeName: config.nodeName,
    nodeIPs: () => [config.nodeIP],
    pullSecrets: pullSecretsFrom(objects, recorder, log),
    objects,
    allocatable,
    relaxedEnvNames: config.featureGates.RelaxedEnvironmentVariableValidation !== false,
    services: () => kubelet.services(),
    volumes,
    dns: () => dnsSettings(config),
    ...(deps.managedHostsFile === false ? {} : { hostsFile: { rootDir: config.rootDir } }),
    httpHook: httpHookVia(transport, deps.dialTarget),
    log,
  });
  // Upstream's pod-worker line for a sync that failed; a CRI error as grpc-go prints it.
  const onError = (uid: string, err: unknown) => {
    const d = podManager.get(uid);
    log.error('Error syncing pod, skipping', { err: CriClientError.isInstance(err) ? err.grpcText : err, ...(d ? { pod: kObj(d.pod) } : {}), podUID: uid });
  };
  const podWorkers = deps.podWorkers ? deps.podWorkers(kubelet.syncPod, onError) : new PodWorkers(kubelet.syncPod, onError, () => clock.now(), deps.podSyncSlots);
  // Kubelet time runs `scale` times faster: the relist threshold too, as the runtime's sync threshold (runtime-state.ts).
  // EventedPLEG (upstream's kubelet.go): the runtime's events drive the PLEG; the relist runs every 5 minutes only.
  const evented = config.featureGates.EventedPLEG === true;
  const relist = relistTiming(evented, scale);
  const pleg = new GenericPLEG(rt, clock, (events) => kubelet.onPlegEvents(events), relist.periodMs, relist.thresholdMs, evented);
  if (deps.metrics) pleg.observeRelist = deps.metrics.observeRelist;
  const runtimeCache = new RuntimeCache(pleg);
  // The node's root (fault state) for the stats; the kubelet's units get it from their manager.
  const nodeRoot = nodeRootOf(config);
  const eviction: EvictionManager = new EvictionManager({
    config: evictionConfig(config),
    summary: () => collectSummary({ rt, memoryCapacityBytes: machine.memoryBytes, rootDir: config.rootDir, nodeRoot }),
    activePods: () => kubelet.activePods(),
    killPod: (pod, gracePeriodSeconds, st) => {
      const uid = pod.metadata.uid ?? '';
      podStates.of(uid).eviction = { ...st, gracePeriodSeconds };
      podWorkers.update(uid, { terminate: true });
    },
    recorder,
    nodeRef: () => nodeStatus.nodeRef(),
    clock,
    log,
  });
  const lease = new NodeLeaseController({
    api: leaseAPI(clientset),
    nodeName: config.nodeName,
    leaseDurationSeconds: config.nodeLeaseDurationSeconds,
    nodeUid: () => nodeStatus.node?.metadata.uid,
    log,
    now: () => clock.now(),
  });
  const images = new ImageList(rt);
  const nodeStatus: NodeStatusController = new NodeStatusController({
    config,
    cs: clientset,
    rt,
    images,
    runtime: runtimeState,
    machine,
    plegHealth: () => pleg.healthy(),
    pressure: () => eviction.pressure(),
    onRegistered: () => lease.start(),
    recorder,
    clock,
    log,
  });
  return {
    clock,
    recorder,
    syncTracer: new PodSyncTracer({
      tracing,
      rt,
      runtimeManager,
      // Cached objects are no requests; under Get a traced sync's reads join its trace.
      objects: (ctx) => objectManagers?.source ?? apiObjectSource(clientset, ctx ? { traceContext: ctx } : undefined),
    }),
    objectManagers,
    podManager,
    podStates,
    podWorkers,
    runtimeState,
    runtimeManager,
    runtimeCache,
    pleg,
    prober,
    statusManager,
    statusReporter,
    mirrorPods: new MirrorPods({ podManager, client: new MirrorClient(clientset, log), nodeName: config.nodeName, nodeUid: () => nodeStatus.node?.metadata.uid, log }),
    volumes,
    tokens,
    eviction,
    lease,
    nodeStatus,
    images,
    containerLogs: new ContainerLogManager({
      rt,
      clock,
      policy: logRotatePolicy(config),
      log,
      knownLogPath: (c) => runtimeCache.get(c.labels[LABEL_POD_UID] ?? '')?.containers.find((x) => x.id === c.id)?.logPath,
    }),
    stats: new StatsProvider({
      rt,
      nodeName: config.nodeName,
      memoryCapacityBytes: machine.memoryBytes,
      rootDir: config.rootDir,
      podLogsDir: config.podLogsDir,
      nodeRoot,
      now: () => new Date(clock.now()),
    }),
    crashBackoff,
    imageBackoff,
  };
}
