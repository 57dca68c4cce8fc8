// The kubelet (upstream pkg/kubelet/kubelet.go): the pod sources, the sync
// functions (syncPod, syncTerminatingPod, syncRemovedPod) and housekeeping.
// syncPod(uid) is the one place a pod's desired state (from the apiserver or
// a manifest file) meets the runtime's actual state; what it drives — pod
// manager, runtime cache, runtime manager, prober, volumes, status manager,
// node status — lives in modules of its own.

import { isPodTerminal, type Node, type Pod, type Service } from '@kubelab/api';
import type { Logger } from '@kubelab/component-base';
import { realClock, type Clientset, type Clock, type EventBroadcaster, type SharedIndexInformer, type SharedInformerFactory } from '@kubelab/client';
import { ROOT_CONTEXT, contextFromObject, trace, type Context, type Tracing } from '@kubelab/tracing';
import { canAdmitPod, rejectedMessage } from './admission/admit.js';
import { Backoff } from './backoff.js';
import { FileSource, isMirrorPod } from './config/file.js';
import { RuntimeCache, podsMadeStale } from './container/runtime-cache.js';
import { podRef, type Recorder } from './events.js';
import { isCriticalPod } from './eviction/helpers.js';
import { EvictionManager } from './eviction/manager.js';
import { collectSummary } from './eviction/stats.js';
import { ImageManager } from './images/image-manager.js';
import { pullSecretsFrom } from './images/pull-secrets.js';
import { evictionConfig, type KubeletConfig } from './kubelet-config.js';
import { computePodActions } from './kuberuntime/actions.js';
import { LABEL_POD_NAME, LABEL_POD_NAMESPACE, type RuntimeService } from './kuberuntime/cri.js';
import { RuntimeManager } from './kuberuntime/manager.js';
import type { RuntimePodStatus } from './kuberuntime/podstatus.js';
import type { KubeletMetrics } from './metrics/metrics.js';
import { dialingProbeTransport, httpHookVia, type DialTarget } from './network/loopback.js';
import { NodeLeaseController, leaseAPI } from './nodelease/controller.js';
import { NodeStatusController } from './nodestatus/controller.js';
import { machineInfo } from './nodestatus/machine-info.js';
import type { MachineInfo } from './nodestatus/setters.js';
import { GenericPLEG, type PodLifecycleEvent } from './pleg/generic.js';
import { MirrorClient, mirrorIsCurrent } from './pod/mirror-client.js';
import { PodManager, fullName, specChanged, type DesiredPod } from './pod/pod-manager.js';
import { PodSyncStates, type PodSyncState } from './pod-sync-state.js';
import { PodWorkers, type PodWorkerQueue, type SyncFn } from './pod-workers.js';
import { ProberManager } from './prober/manager.js';
import { Prober, criProbeTransport } from './prober/prober.js';
import { RuntimeState } from './runtime-state.js';
import { StatusManager, podStatusAPI } from './status/manager.js';
import { PodStatusReporter } from './status/reporter.js';
import { untraced } from './untraced.js';
import { KUBELET_VERSION } from './version.js';
import { VolumeManager } from './volumemanager/manager.js';
import { apiObjectSource, type ObjectSource } from './volumemanager/sources.js';

export { KUBELET_VERSION, type KubeletConfig };

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
}

/** A traced sync's call paths (Kubelet.syncScope); absent: the kubelet's own, untraced. */
interface SyncScope {
  runtime: RuntimeManager;
  objects: ObjectSource;
}

export class Kubelet {
  readonly config: KubeletConfig;
  readonly clock: Clock;
  readonly log: Logger;
  readonly recorder: Recorder;
  readonly rt: RuntimeService;
  readonly runtimeState: RuntimeState;
  readonly runtimeManager: RuntimeManager;
  readonly prober: ProberManager;
  readonly pleg: GenericPLEG;
  readonly statusManager: StatusManager;
  private readonly statusReporter: PodStatusReporter;
  readonly podWorkers: PodWorkerQueue;
  readonly lease: NodeLeaseController;
  readonly nodeStatus: NodeStatusController;
  readonly eviction: EvictionManager;
  readonly volumes: VolumeManager;
  readonly podManager = new PodManager();
  private readonly podStates = new PodSyncStates();
  private readonly runtimeCache: RuntimeCache;
  private readonly mirrorClient: MirrorClient;
  private readonly cs: Clientset;
  private readonly informers: SharedInformerFactory;
  private podInformer: SharedIndexInformer<Pod> | undefined;
  private serviceInformer: SharedIndexInformer<Service> | undefined;
  private fileSource: FileSource | undefined;
  private readonly tracing: Tracing | undefined;
  private readonly metrics: KubeletMetrics | undefined;
  private readonly crashBackoff: Backoff;
  private readonly imageBackoff: Backoff;
  private apiSynced = false;
  private staticSynced = false;
  private stopped = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(deps: KubeletDeps) {
    const config = (this.config = deps.config);
    const clock = (this.clock = deps.clock ?? realClock);
    const scale = config.timeScale;
    this.log = deps.log;
    this.cs = deps.clientset;
    this.informers = deps.informers;
    this.rt = deps.runtime;
    this.tracing = deps.tracing?.enabled ? deps.tracing : undefined;
    this.metrics = deps.metrics;
    const rec = deps.broadcaster.newRecorder({ component: 'kubelet', host: config.nodeName });
    // Events are written by the broadcaster's own loop: keep them out of whichever pod's trace is active.
    this.recorder = { event: (ref, type, reason, message) => untraced(() => rec.event(ref, type, reason, message)) };
    this.crashBackoff = new Backoff(10_000 / scale, 300_000 / scale, clock);
    this.imageBackoff = new Backoff(10_000 / scale, 300_000 / scale, clock);
    const machine = deps.machine ?? machineInfo(config);
    this.runtimeState = new RuntimeState(this.rt, clock, this.log, scale);
    this.mirrorClient = new MirrorClient(this.cs, this.log);

    this.statusManager = new StatusManager(podStatusAPI(this.cs, !!this.tracing), this.log, (uid) => {
      const d = this.podManager.get(uid);
      if (!d) return undefined;
      return d.static ? this.podManager.mirrorOf(d.pod) : this.podInformer?.getIndexer().getByKey(fullName(d.pod));
    });
    const transport = criProbeTransport(this.rt);
    const prober = new Prober(dialingProbeTransport(transport, deps.dialTarget), this.recorder, scale);
    this.prober = new ProberManager(prober, this.statusManager, clock, true, scale, (id) => this.podStates.containerStartedAt(id));
    this.statusReporter = new PodStatusReporter({
      podManager: this.podManager,
      podStates: this.podStates,
      statusManager: this.statusManager,
      prober: this.prober,
      runtimeName: () => this.runtimeState.name,
      nodeIP: config.nodeIP,
      timeScale: scale,
      recorder: this.recorder,
      clock,
      observePodStart: (seconds) => this.metrics?.observePodStart(seconds),
    });
    // Liveness/startup failures restart containers; readiness changes the status.
    for (const rm of [this.prober.liveness, this.prober.startup, this.prober.readiness]) rm.onUpdate((u) => this.podWorkers.update(u.podUid));

    // ConfigMaps and Secrets read from the apiserver on use (upstream's Get strategy).
    const objects = apiObjectSource(this.cs);
    const allocatable = () => ({ ...(this.nodeStatus.lastStatus?.allocatable ?? {}) });
    this.volumes = new VolumeManager({ rootDir: config.rootDir, sources: objects, recorder: this.recorder, clock, allocatable, timeScale: scale });
    this.runtimeManager = new RuntimeManager({
      rt: this.rt,
      images: new ImageManager(this.rt, this.imageBackoff, this.recorder, clock),
      recorder: this.recorder,
      crashBackoff: this.crashBackoff,
      clock,
      podLogsDir: config.podLogsDir,
      runtimeName: this.runtimeState.name,
      nodeName: config.nodeName,
      nodeIPs: () => [config.nodeIP],
      pullSecrets: pullSecretsFrom(this.cs, this.recorder, this.log),
      objects,
      allocatable,
      relaxedEnvNames: config.featureGates.RelaxedEnvironmentVariableValidation !== false,
      // Every Service, for the containers' service environment variables (upstream serviceLister).
      services: () => this.serviceInformer?.getIndexer().list() ?? [], // undefined before start()
      volumes: this.volumes,
      httpHook: httpHookVia(transport, deps.dialTarget),
    });
    const sync: SyncFn = (uid) => this.tracedSyncPod(uid);
    const onError = (uid: string, err: unknown) => this.log.warn('pod sync failed', { pod: this.podManager.podName(uid), err });
    this.podWorkers = deps.podWorkers ? deps.podWorkers(sync, onError) : new PodWorkers(sync, onError, () => clock.now());
    this.pleg = new GenericPLEG(this.rt, clock, (events) => this.onPlegEvents(events), 1000, 3 * 60_000, config.featureGates.EventedPLEG === true);
    if (this.metrics) this.pleg.observeRelist = this.metrics.observeRelist;
    this.runtimeCache = new RuntimeCache(this.pleg);
    this.eviction = new EvictionManager({
      config: evictionConfig(config),
      summary: () => collectSummary({ rt: this.rt, memoryCapacityBytes: machine.memoryBytes, rootDir: config.rootDir }),
      activePods: () => this.activePods(),
      killPod: (pod, gracePeriodSeconds, st) => {
        const uid = pod.metadata.uid ?? '';
        this.podStates.of(uid).eviction = { ...st, gracePeriodSeconds };
        this.podWorkers.update(uid, { terminate: true });
      },
      recorder: this.recorder,
      nodeRef: () => this.nodeStatus.nodeRef(),
      clock,
      log: this.log,
    });
    this.lease = new NodeLeaseController({
      api: leaseAPI(this.cs),
      nodeName: config.nodeName,
      leaseDurationSeconds: config.nodeLeaseDurationSeconds,
      nodeUid: () => this.nodeStatus.node?.metadata.uid,
      log: this.log,
      now: () => clock.now(),
    });
    this.nodeStatus = new NodeStatusController({
      config,
      cs: this.cs,
      rt: this.rt,
      runtime: this.runtimeState,
      machine,
      plegHealth: () => this.pleg.healthy(),
      pressure: () => this.eviction.pressure(),
      onRegistered: () => this.lease.start(),
      recorder: this.recorder,
      clock,
      log: this.log,
    });
  }

  // ------------------------------------------------------------ lifecycle

  async start(): Promise<void> {
    this.log.info('Starting kubelet', { node: this.config.nodeName, version: KUBELET_VERSION });
    await this.nodeStatus.runtimeUp();
    this.every(5_000, () => this.nodeStatus.runtimeUp());

    const podInformer = (this.podInformer = this.informers.core.pods({ fieldSelector: `spec.nodeName=${this.config.nodeName}` }));
    podInformer.addEventHandler({
      onAdd: (p) => this.onApiPod(p),
      onUpdate: (_o, p) => this.onApiPod(p),
      onDelete: (p) => this.onApiPodDeleted('metadata' in p ? p : (p as { obj: Pod }).obj),
    });
    const nodeInformer = this.informers.core.nodes({ fieldSelector: `metadata.name=${this.config.nodeName}` });
    const serviceInformer = (this.serviceInformer = this.informers.core.services());
    const onNode = (n: Node) => this.nodeStatus.observe(n);
    nodeInformer.addEventHandler({ onAdd: onNode, onUpdate: (_o, n) => onNode(n) });

    // Without a manifest path the file source has nothing to wait for.
    this.staticSynced = !this.config.podManifestPath;

    if (this.config.registerNode) void this.nodeStatus.registerWithRetry();
    // Know what the runtime already runs before syncing any pod (adoption after a restart).
    await this.pleg.relist();
    if (this.config.podManifestPath) {
      this.fileSource = new FileSource(
        this.config.podManifestPath,
        this.config.nodeName,
        this.config.fileCheckFrequencyMs,
        (pods) => {
          this.onStaticPods(pods);
          this.markStaticSynced();
        },
        (e) => this.log.warn('Could not process manifest file', { path: e.file, err: e.message }),
      );
      this.fileSource.start();
    }
    podInformer.run();
    nodeInformer.run();
    serviceInformer.run();
    this.pleg.start();
    // The lease starts once the Node exists, so it is created owned by it.
    if (!this.config.registerNode) this.lease.start();
    this.every(this.config.nodeStatusUpdateFrequencyMs, () => this.nodeStatus.syncNodeStatus());
    this.every(2_000, () => this.housekeeping());
    // Upstream's sync loop ticks every second and syncs pods whose active deadline passed (ShouldSync).
    this.every(1_000, () => this.checkActiveDeadlines());
    this.every((this.config.evictionMonitoringPeriodMs ?? 10_000) / this.config.timeScale, () => this.eviction.synchronize());
    // Reconcile: re-post a cached status the API no longer shows (upstream status manager syncBatch).
    this.every(this.config.statusSyncPeriodMs ?? 10_000, () => this.statusManager.syncBatch());
    this.every(this.config.syncFrequencyMs, () => {
      for (const uid of this.podManager.uids()) this.podWorkers.update(uid);
    });
    void podInformer.whenSynced().then(() => {
      this.apiSynced = true;
      this.onSourcesMaybeReady();
    });
  }

  private markStaticSynced(): void {
    if (this.staticSynced) return;
    this.staticSynced = true;
    this.onSourcesMaybeReady();
  }

  private onSourcesMaybeReady(): void {
    if (!this.sourcesReady()) return;
    this.log.info('All pod sources are ready; cleaning up pods no source wants');
    void this.housekeeping();
  }

  private every(ms: number, fn: () => unknown): void {
    const t = setInterval(() => {
      if (!this.stopped) void Promise.resolve(fn()).catch((err) => this.log.warn('periodic task failed', { err }));
    }, ms);
    t.unref();
    this.timers.push(t);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.fileSource?.stop();
    this.nodeStatus.stop();
    this.pleg.stop();
    this.lease.stop();
    this.prober.stop();
    this.podWorkers.stop();
    this.statusManager.stop();
  }

  /**
   * Upstream sourcesReady: every pod source has delivered its first full set
   * (the apiserver pod informer has synced AND the manifest directory has been
   * read). Until then a runtime pod no source mentions may simply not have
   * arrived yet, so nothing is killed as unwanted.
   */
  sourcesReady(): boolean {
    return this.apiSynced && this.staticSynced;
  }

  /** Marks every pod source as having delivered its first full set (tests that feed the handlers themselves). */
  markSourcesReady(): void {
    this.apiSynced = true;
    this.staticSynced = true;
  }

  // ------------------------------------------------------------ sources

  /** An API pod bound to this node was added or changed (upstream HandlePodAdditions/Updates). */
  onApiPod(pod: Pod): void {
    if (isMirrorPod(pod)) {
      this.podManager.setMirror(pod);
      for (const uid of this.podManager.staticPodsMirroredBy(pod)) this.podWorkers.update(uid);
      return;
    }
    const uid = pod.metadata.uid ?? '';
    const known = this.podManager.has(uid);
    if (!known && !pod.status?.startTime) this.podStates.of(uid).firstSeenAt = this.clock.now();
    if (!known) this.admitNewPod(uid, pod);
    const prev = this.podManager.set(uid, pod, false);
    // A status-only change (often our own write) needs no sync (upstream RECONCILE).
    if (prev && !specChanged(prev, pod)) return;
    // A deletion cancels a sync that is still starting containers (upstream UpdatePod with SyncPodKill).
    this.podWorkers.update(uid, pod.metadata.deletionTimestamp ? { terminate: true } : {});
  }

  /**
   * Upstream HandlePodAdditions' canAdmitPod: a pod new to this kubelet is
   * checked against the pods already admitted; a rejected one fails with the
   * reason (rejectPod) and none of its containers start. Pods that already
   * started (adopted after a restart) are not checked again.
   */
  private admitNewPod(uid: string, pod: Pod): void {
    // The node as this kubelet last computed it (upstream getNodeAnyWay); before the first status there is nothing to check against.
    const node = this.nodeStatus.node;
    const status = this.nodeStatus.lastStatus ?? node?.status;
    if (!node || !status?.allocatable || pod.status?.startTime || pod.metadata.deletionTimestamp || isPodTerminal(pod)) return;
    const others = this.activePods().filter((p) => p.metadata.uid !== uid);
    const r = canAdmitPod(pod, { ...node, status }, others, this.eviction.pressureConditions(), { isStatic: false, isCritical: isCriticalPod(pod) });
    if (r.admit) return;
    this.log.info('Pod admission denied', { pod: fullName(pod), reason: r.reason, message: r.message });
    this.recorder.event(podRef(pod), 'Warning', r.reason, r.message);
    this.podStates.of(uid).eviction = { reason: r.reason, message: rejectedMessage(r.message), gracePeriodSeconds: 0 };
  }

  /** An API pod is gone from the apiserver (upstream HandlePodRemoves). */
  onApiPodDeleted(pod: Pod): void {
    if (isMirrorPod(pod)) {
      this.podManager.removeMirror(pod, pod.metadata.uid);
      // A deleted mirror pod is recreated by the static pod's next sync.
      for (const uid of this.podManager.staticPodsMirroredBy(pod)) this.podWorkers.update(uid);
      return;
    }
    const uid = pod.metadata.uid ?? '';
    this.podManager.remove(uid);
    const state = this.podStates.get(uid);
    if (state) delete state.firstSeenAt;
    this.podWorkers.update(uid, { terminate: true });
  }

  /** The manifest directory's full set of static pods (upstream file source SET). */
  onStaticPods(pods: Pod[]): void {
    const next = new Set(pods.map((p) => p.metadata.uid ?? ''));
    for (const [uid, d] of this.podManager.entries()) {
      if (d.static && !next.has(uid)) {
        this.podManager.remove(uid);
        this.podWorkers.update(uid, { terminate: true });
        void this.deleteMirror(d.pod);
      }
    }
    for (const p of pods) {
      const uid = p.metadata.uid ?? '';
      if (this.podManager.has(uid)) continue;
      this.log.info('Static pod added', { pod: fullName(p), uid });
      this.podManager.set(uid, p, true);
      this.podStates.of(uid).firstSeenAt = this.clock.now();
      this.podWorkers.update(uid);
    }
  }

  /** PLEG events mark the pods' cached runtime status stale and sync them. */
  private onPlegEvents(events: PodLifecycleEvent[]): void {
    for (const uid of podsMadeStale(events, (u) => this.runtimeCache.get(u))) {
      this.runtimeCache.invalidate(uid);
      this.podWorkers.update(uid);
    }
  }

  /** Syncs pods whose active deadline just passed (upstream activeDeadlineHandler.ShouldSync). */
  private checkActiveDeadlines(): void {
    for (const [uid, d] of this.podManager.entries()) if (this.statusReporter.deadlinePassedUnreported(uid, d)) this.podWorkers.update(uid, { terminate: true });
  }

  /** Pods the eviction manager may evict: not terminal, not being deleted, not already evicted (upstream GetActivePods). */
  private activePods(): Pod[] {
    return this.podManager
      .entries()
      .filter(([uid, d]) => !d.pod.metadata.deletionTimestamp && !this.podStates.get(uid)?.eviction && !this.statusReporter.hasTerminalStatus(uid, d))
      .map(([, d]) => d.pod);
  }

  // ------------------------------------------------------------ sync

  /**
   * A pod sync in a `syncPod` span continuing the pod's trace (the apiserver
   * recorded the creating request's context on it), so its CRI calls and
   * status writes join that trace. Without tracing: the sync itself.
   */
  private tracedSyncPod(uid: string): Promise<{ retryAt?: number } | void> {
    const tracing = this.tracing;
    if (!tracing) return this.syncPod(uid);
    const d = this.podManager.get(uid);
    const pod = d && !d.static ? d.pod : undefined;
    const attributes = () => ({ 'k8s.pod.uid': uid, ...(d ? { 'k8s.pod.name': d.pod.metadata.name ?? '', 'k8s.namespace.name': d.pod.metadata.namespace ?? '' } : {}) });
    // Only the syncs of the pod's start continue its trace; later (periodic) syncs are roots
    // sampled at the kubelet's own rate, so the pod-start trace ends and stays small.
    const parent = this.podStates.get(uid)?.firstSeenAt !== undefined ? contextFromObject(pod) : ROOT_CONTEXT;
    // The span's context is handed down explicitly (syncScope): the kubelet runs the sync context manager.
    return tracing.withSpan('syncPod', (span) => this.syncPod(uid, span.isRecording() ? this.syncScope(trace.setSpan(parent, span)) : undefined), { parent, attributes });
  }

  /**
   * What one traced sync calls through: the runtime manager on a CRI view whose
   * calls are children of ctx, and ConfigMap/Secret reads under ctx (upstream
   * passes the sync's ctx to every CRI and API call it makes).
   */
  private syncScope(ctx: Context): SyncScope {
    const rt = this.rt.withTraceContext?.(ctx);
    const objects = apiObjectSource(this.cs, { traceContext: ctx });
    return { runtime: this.runtimeManager.withCalls(rt ?? this.rt, objects), objects };
  }

  /** The pod's runtime status through `runtime`: cached unless `fresh`. */
  private runtimeStatus(uid: string, pod: Pod, runtime: RuntimeManager, fresh = false): Promise<RuntimePodStatus> {
    return this.runtimeCache.status(uid, pod.metadata.name, pod.metadata.namespace, runtime, fresh);
  }

  /** One pod: converge the runtime to the spec and report status (upstream SyncPod / SyncTerminatingPod). */
  async syncPod(uid: string, scope?: SyncScope): Promise<{ retryAt?: number } | void> {
    const runtime = scope?.runtime ?? this.runtimeManager;
    const d = this.podManager.get(uid);
    if (!d) {
      // Until every source has synced, an unknown pod may just not have arrived yet: never kill it.
      if (!this.sourcesReady()) return;
      return this.syncRemovedPod(uid);
    }
    const pod = d.pod;
    // Aborted once the pod is to stop: this sync then starts nothing, and the next one terminates it.
    const terminating = this.podWorkers.terminationSignal(uid);
    if (d.static) await this.ensureMirrorPod(uid, d);
    let rs = await this.runtimeStatus(uid, pod, runtime);

    if (pod.metadata.deletionTimestamp) return this.syncTerminatingPod(uid, d, rs, runtime);
    // Without pod networking only host-network pods can start (upstream NetworkNotReady).
    const networkNotReady = this.runtimeState.networkNotReady;
    if (networkNotReady && !pod.spec?.hostNetwork && !rs.sandboxes.some((s) => s.ready)) {
      const msg = `network is not ready: container runtime network not ready: NetworkReady=false reason:${networkNotReady.reason} message:${networkNotReady.message}`;
      this.recorder.event(podRef(pod), 'Warning', 'NetworkNotReady', msg);
      this.statusReporter.publish(uid, d, this.statusReporter.compute(uid, d, rs));
      return { retryAt: this.clock.now() + 2000 };
    }

    let status = this.statusReporter.compute(uid, d, rs);
    if (isPodTerminal({ ...pod, status })) {
      // Done: stop what is left (the sandbox) and keep reporting the final status.
      if (rs.sandboxes.some((s) => s.ready) || rs.containers.some((c) => c.state === 'running')) {
        await runtime.killPod(pod, rs, this.podStates.get(uid)?.eviction?.gracePeriodSeconds);
        rs = await this.runtimeStatus(uid, pod, runtime, true);
        status = this.statusReporter.compute(uid, d, rs, true);
      }
      this.statusReporter.publish(uid, d, status);
      this.prober.removePod(uid);
      return;
    }
    this.statusReporter.publish(uid, d, status);
    // Probe workers run on their own timers: outside this sync's span.
    untraced(() => this.prober.addPod(pod));

    // Volumes before containers (upstream WaitForAttachAndMount); files of configMap/secret volumes follow their sources on every sync.
    const mount = await this.volumes.mountPod(pod, scope?.objects);
    if (mount.unmounted.length) return mount.retryAt !== undefined ? { retryAt: mount.retryAt } : undefined;
    // The deletion (or eviction) arrived while this sync ran: `pod` is stale, the pending sync stops it.
    if (terminating?.aborted) return;

    const actions = computePodActions(
      pod,
      rs,
      (id) => this.prober.liveness.get(id),
      (id) => this.prober.startup.get(id),
      this.runtimeState.name,
    );
    const nothingToDo = !actions.killPod && !actions.createSandbox && !actions.containersToKill.length && !actions.containersToStart.length && !actions.initContainersToStart.length;
    if (nothingToDo) return mount.retryAt !== undefined ? { retryAt: mount.retryAt } : undefined;

    const result = await runtime.syncPod(pod, rs, actions, terminating);
    if (result.cancelled) {
      // What this sync killed may still be stopping: the terminating sync reads the runtime afresh.
      this.runtimeCache.invalidate(uid);
      return;
    }
    const { reasons } = this.podStates.of(uid);
    for (const [name, r] of result.reasons) {
      if (r) reasons.set(name, r);
      else reasons.delete(name);
    }
    if (result.changes.killed) rs = await this.runtimeStatus(uid, pod, runtime, true);
    else {
      rs = await runtime.refreshAfter(rs, result.changes);
      this.runtimeCache.set(uid, rs);
    }
    this.statusReporter.publish(uid, d, this.statusReporter.compute(uid, d, rs));
    untraced(() => this.prober.triggerPod(uid));
    if (actions.initFailed) this.podWorkers.update(uid);
    void this.runtimeManager.gcContainers(rs).catch(() => {});
    const retryAt = Math.min(result.retryAt ?? Infinity, mount.retryAt ?? Infinity);
    return Number.isFinite(retryAt) ? { retryAt } : undefined;
  }

  /** Deleted in the API: stop within the grace period, report, remove, confirm the deletion. */
  private async syncTerminatingPod(uid: string, d: DesiredPod, rs: RuntimePodStatus, runtime: RuntimeManager): Promise<void> {
    const pod = d.pod;
    // No liveness or startup failure restarts anything now; readiness is reported until the containers stop.
    this.prober.stopLivenessAndStartup(uid);
    if (rs.containers.some((c) => c.state === 'running' || c.state === 'created') || rs.sandboxes.some((s) => s.ready)) {
      await runtime.killPod(pod, rs);
      rs = await this.runtimeStatus(uid, pod, runtime, true);
    }
    this.prober.removePod(uid);
    this.statusReporter.publish(uid, d, this.statusReporter.compute(uid, d, rs, true));
    await runtime.removePod(rs);
    this.statusManager.markTerminated(uid);
  }

  /** Gone from every source: kill whatever the runtime still runs for it, then forget the pod (upstream HandlePodCleanups). */
  private async syncRemovedPod(uid: string): Promise<void> {
    this.prober.removePod(uid);
    const rs = await this.runtimeManager.getPodStatus(uid);
    if (rs.containers.length || rs.sandboxes.length) {
      const pod: Pod = { metadata: { uid, name: rs.name, namespace: rs.namespace }, spec: { containers: [] } };
      this.log.info('Killing unwanted pod', { pod: `${rs.namespace}/${rs.name}`, uid });
      await this.runtimeManager.killPod(pod, rs);
      await this.runtimeManager.removePod(await this.runtimeManager.getPodStatus(uid));
    }
    this.podStates.drop(uid);
    this.runtimeCache.forget(uid);
    this.volumes.cleanupPod(uid);
    // Keep the final status write (and deletion) of an API pod; forget the rest.
    if (!this.podManager.has(uid)) this.podWorkers.forget(uid);
  }

  /** Runtime pods that no source wants any more (orphans after a restart); only once all sources are ready. */
  async housekeeping(): Promise<void> {
    if (!this.sourcesReady()) return;
    this.prober.cleanupPods(new Set(this.podManager.uids()));
    let sandboxes;
    try {
      sandboxes = await this.rt.listPodSandbox();
    } catch {
      return;
    }
    // Pod directories of pods neither wanted nor in the runtime (upstream cleanupOrphanedPodDirs).
    const inRuntime = new Set(sandboxes.map((sb) => sb.metadata.uid));
    this.volumes.cleanupOrphans((uid) => this.podManager.has(uid) || inRuntime.has(uid));
    for (const sb of sandboxes) {
      const uid = sb.metadata.uid;
      if (!this.podManager.has(uid)) {
        this.log.info('Found pod not bound to this node any more', { pod: `${sb.labels[LABEL_POD_NAMESPACE] ?? sb.metadata.namespace}/${sb.labels[LABEL_POD_NAME] ?? sb.metadata.name}`, uid });
        this.podWorkers.update(uid);
      }
    }
    this.crashBackoff.gc();
    this.imageBackoff.gc();
  }

  // ------------------------------------------------------------ mirror pods

  /** A static pod's mirror pod exists and matches its config hash; a status computed before it existed is written now. */
  private async ensureMirrorPod(uid: string, d: DesiredPod): Promise<void> {
    const nodeUid = this.nodeStatus.node?.metadata.uid;
    if (!nodeUid) return;
    const m = this.podManager.mirrorOf(d.pod);
    if (m && mirrorIsCurrent(d.pod, m)) return;
    if (m) {
      this.log.info('Deleting mirror pod because it is outdated', { pod: fullName(d.pod) });
      await this.mirrorClient.delete(m, true);
      this.podManager.removeMirror(m);
    }
    const created = await this.mirrorClient.create(d.pod, { name: this.config.nodeName, uid: nodeUid });
    if (!created) return;
    this.podManager.setMirror(created);
    this.statusReporter.publishHeld(uid, d);
  }

  private async deleteMirror(staticPod: Pod): Promise<void> {
    const m = this.podManager.mirrorOf(staticPod);
    if (!m) return;
    await this.mirrorClient.delete(m);
    this.podManager.removeMirror(m);
  }

  // ------------------------------------------------------------ queries

  /** Pods as the kubelet's /pods endpoint lists them (static pods under their own UID). */
  runningPods(): Pod[] {
    return this.podManager
      .entries()
      .map(([uid, d]) => ({ ...d.pod, apiVersion: 'v1', kind: 'Pod', status: this.statusManager.getPodStatus(uid) ?? this.podStates.get(uid)?.statusAwaitingMirror ?? d.pod.status ?? {} }));
  }

  /** What the kubelet remembers about a pod between syncs (undefined once the pod is forgotten). */
  syncStateOf(uid: string): Readonly<PodSyncState> | undefined {
    return this.podStates.get(uid);
  }

  /** Finds a pod by namespace/name among the desired pods. */
  findPod(namespace: string, name: string): { uid: string; pod: Pod } | undefined {
    return this.podManager.find(namespace, name);
  }
}
