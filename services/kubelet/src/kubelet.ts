// The kubelet (upstream pkg/kubelet/kubelet.go): the pod sources, the sync
// functions (syncPod, syncTerminatingPod, syncRemovedPod) and housekeeping.
// syncPod(uid) is the one place a pod's desired state (from the apiserver or
// a manifest file) meets the runtime's actual state; what it drives — pod
// manager, runtime cache, runtime manager, prober, volumes, status manager,
// node status — lives in modules of its own, built by kubelet-deps.ts.

import { isPodTerminal, type Node, type Pod, type Service } from '@kubelab/api';
import { kObj, kObjSlice, type Logger } from '@kubelab/component-base';
import type { Clock, SharedIndexInformer, SharedInformerFactory } from '@kubelab/client';
import { canAdmitPod, rejectedMessage } from './admission/admit.js';
import type { Backoff } from './backoff.js';
import type { StatsProvider } from './stats/provider.js';
import { FileSource, isMirrorPod } from './config/file.js';
import { podsMadeStale, type RuntimeCache } from './container/runtime-cache.js';
import { Reason, podRef, type Recorder } from './events.js';
import { isCriticalPod } from './eviction/helpers.js';
import type { EvictionManager } from './eviction/manager.js';
import type { KubeletConfig } from './kubelet-config.js';
import { LOG_MONITOR_PERIOD_MS, type ContainerLogManager } from './logs/container-log-manager.js';
import { CONTAINER_GC_PERIOD_MS, evictPodLogsDirectories } from './logs/pod-logs-gc.js';
import { RECENT_LISTS_MS, newKubeletManagers, type KubeletDeps } from './kubelet-deps.js';
import { computePodActions } from './kuberuntime/actions.js';
import { LABEL_POD_NAME, LABEL_POD_NAMESPACE, type PodSandbox, type RuntimeService } from './kuberuntime/cri.js';
import type { RuntimeManager } from './kuberuntime/manager.js';
import { podSyncErrorText } from './kuberuntime/sync-error.js';
import { SyncLoopGate, syncBlockingErrors } from './sync-loop-gate.js';
import type { RuntimePodStatus } from './kuberuntime/podstatus.js';
import type { NodeLeaseController } from './nodelease/controller.js';
import type { NodeStatusController } from './nodestatus/controller.js';
import type { ObjectManagers } from './objectcache/managers.js';
import { RECYCLE_IDLE_PERIOD_MS } from './objectcache/watch-based-manager.js';
import { IMAGE_LIST_REFRESH_MS, type ImageList } from './images/image-list.js';
import type { GenericPLEG, PodLifecycleEvent } from './pleg/generic.js';
import type { MirrorPods } from './pod/mirror-pods.js';
import { fullName, podUpdateOp, type DesiredPod, type PodManager } from './pod/pod-manager.js';
import type { PodSyncState, PodSyncStates } from './pod-sync-state.js';
import type { PodSyncTracer, SyncResult, SyncScope } from './pod-sync-tracer.js';
import type { PodWorkerQueue } from './pod-workers.js';
import type { ProberManager } from './prober/manager.js';
import type { RuntimeState } from './runtime-state.js';
import type { StatusManager } from './status/manager.js';
import type { PodStatusReporter } from './status/reporter.js';
import { untraced } from './untraced.js';
import { KUBELET_VERSION } from './version.js';
import type { VolumeManager } from './volumemanager/manager.js';
import { TOKEN_GC_PERIOD_MS, type TokenManager } from './token/manager.js';

export { KUBELET_VERSION, type KubeletConfig, type KubeletDeps };

/** How often the kubelet asks the runtime for its status (upstream updateRuntimeUp's period). */
const RUNTIME_UP_PERIOD_MS = 5_000;

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
  readonly images: ImageList;
  readonly eviction: EvictionManager;
  readonly volumes: VolumeManager;
  private readonly tokens: TokenManager;
  /** The watch-based ConfigMap and Secret managers (absent under the Get strategy). */
  readonly objectManagers: ObjectManagers | undefined;
  readonly containerLogs: ContainerLogManager;
  readonly stats: StatsProvider;
  readonly podManager: PodManager;
  private readonly podStates: PodSyncStates;
  private readonly runtimeCache: RuntimeCache;
  private readonly mirrorPods: MirrorPods;
  private readonly informers: SharedInformerFactory;
  private podInformer: SharedIndexInformer<Pod> | undefined;
  private serviceInformer: SharedIndexInformer<Service> | undefined;
  private fileSource: FileSource | undefined;
  /** Absent only in tests that build a kubelet by hand. */
  private readonly syncTracer: PodSyncTracer | undefined;
  /** Crash-loop and image-pull back-offs: entries of pods long gone are dropped by housekeeping. */
  private readonly backoffs: Backoff[];
  private readonly syncGate = new SyncLoopGate();
  private apiSynced = false;
  private staticSynced = false;
  private stopped = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(deps: KubeletDeps) {
    this.config = deps.config;
    this.log = deps.log;
    this.informers = deps.informers;
    this.rt = deps.runtime;
    const m = newKubeletManagers(deps, {
      syncPod: (uid) => this.gatedSync(uid),
      apiPod: (key) => this.podInformer?.getIndexer().getByKey(key),
      services: () => this.serviceInformer?.getIndexer().list() ?? [], // undefined before start()
      onPlegEvents: (events) => this.onPlegEvents(events),
      activePods: () => this.activePods(),
    });
    this.clock = m.clock;
    this.recorder = m.recorder;
    this.syncTracer = m.syncTracer;
    this.podManager = m.podManager;
    this.podStates = m.podStates;
    this.podWorkers = m.podWorkers;
    this.runtimeState = m.runtimeState;
    this.runtimeManager = m.runtimeManager;
    this.runtimeCache = m.runtimeCache;
    this.pleg = m.pleg;
    this.prober = m.prober;
    this.statusManager = m.statusManager;
    this.statusReporter = m.statusReporter;
    this.mirrorPods = m.mirrorPods;
    this.volumes = m.volumes;
    this.tokens = m.tokens;
    this.objectManagers = m.objectManagers;
    this.eviction = m.eviction;
    this.lease = m.lease;
    this.nodeStatus = m.nodeStatus;
    this.images = m.images;
    this.containerLogs = m.containerLogs;
    this.stats = m.stats;
    this.backoffs = [m.crashBackoff, m.imageBackoff];
  }

  // ------------------------------------------------------------ lifecycle

  async start(): Promise<void> {
    this.log.info('Starting kubelet', { node: this.config.nodeName, version: KUBELET_VERSION });
    await this.nodeStatus.runtimeUp();
    // Upstream's 5 s runtime check against a 30 s threshold; both follow --time-scale, or a scaled threshold shorter than the period reads a healthy runtime as down.
    this.every(RUNTIME_UP_PERIOD_MS / this.config.timeScale, () => this.nodeStatus.runtimeUp());

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

    // Once per start, as upstream's kubelet does before it registers (each registration attempt records its setters' events again).
    this.recorder.event(this.nodeStatus.nodeRef(), 'Normal', Reason.Starting, 'Starting kubelet.');
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
    this.every(IMAGE_LIST_REFRESH_MS / this.config.timeScale, () => this.images.refresh());
    this.every(2_000, () => this.housekeeping());
    if (this.objectManagers) this.every(RECYCLE_IDLE_PERIOD_MS, () => this.objectManagers!.recycleIdle());
    this.every(LOG_MONITOR_PERIOD_MS, () => this.containerLogs.rotateLogs());
    this.every(CONTAINER_GC_PERIOD_MS, () => this.containerGC());
    this.every(TOKEN_GC_PERIOD_MS / this.config.timeScale, () => this.tokens.cleanup());
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

  /**
   * Runs fn every `ms`. A tick that finds the loop's previous run still going is skipped, as upstream's loops
   * (wait.Until) never overlap: on a starved process a slow runtime or apiserver otherwise gets a new call
   * each period on top of those still waiting, and the backlog grows.
   */
  private every(ms: number, fn: () => unknown): void {
    let running = false;
    const t = setInterval(() => {
      if (this.stopped || running) return;
      running = true;
      let run: unknown;
      try {
        run = fn();
      } catch (err) {
        run = Promise.reject(err);
      }
      void Promise.resolve(run)
        .catch((err) => this.log.warn('periodic task failed', { err }))
        .finally(() => (running = false));
    }, ms);
    t.unref();
    this.timers.push(t);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.objectManagers?.stop();
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
    const op = podUpdateOp(this.podManager.get(uid)?.pod, pod);
    if (op) this.logSyncLoop(op, 'api', pod);
    if (op === 'ADD' && !pod.status?.startTime) this.podStates.of(uid).firstSeenAt = this.clock.now();
    if (op === 'ADD') this.admitNewPod(uid, pod);
    this.podManager.set(uid, pod, false);
    // A status-only change (often our own write) needs no sync (upstream RECONCILE).
    if (op !== 'ADD' && op !== 'UPDATE' && op !== 'DELETE') return;
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
    this.logSyncLoop('REMOVE', 'api', pod);
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
        this.logSyncLoop('REMOVE', 'file', d.pod);
        this.podManager.remove(uid);
        this.podWorkers.update(uid, { terminate: true });
        void this.mirrorPods.delete(d.pod);
      }
    }
    for (const p of pods) {
      const uid = p.metadata.uid ?? '';
      if (this.podManager.has(uid)) continue;
      this.logSyncLoop('ADD', 'file', p);
      this.podManager.set(uid, p, true);
      this.podStates.of(uid).firstSeenAt = this.clock.now();
      this.podWorkers.update(uid);
    }
  }

  /** Upstream syncLoopIteration's line per pod config operation (RECONCILE at V(4), the others at V(2)). */
  private logSyncLoop(op: 'ADD' | 'UPDATE' | 'DELETE' | 'RECONCILE' | 'REMOVE', source: 'api' | 'file', pod: Pod): void {
    this.log.v(op === 'RECONCILE' ? 4 : 2).info(`SyncLoop ${op}`, { source, pods: kObjSlice([pod]) });
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
   * Upstream syncLoop's guard (sync-loop-gate.ts): while the runtime has errors no pod is synced and no
   * housekeeping runs; "Skipping pod synchronization" is logged once per wait. Undefined: go on.
   */
  private heldByRuntime(): { retryAt: number } | undefined {
    const held = this.syncGate.check(syncBlockingErrors(this.nodeStatus.runtimeHealth()), this.clock.now());
    if (held?.log) this.log.error('Skipping pod synchronization', { err: held.log });
    return held;
  }

  private gatedSync(uid: string): Promise<SyncResult | { retryAt: number }> {
    const held = this.heldByRuntime();
    return held ? Promise.resolve(held) : this.tracedSyncPod(uid);
  }

  /** A pod sync, in a span continuing the pod's trace when tracing is on. */
  private tracedSyncPod(uid: string): Promise<SyncResult> {
    if (!this.syncTracer) return this.syncPod(uid);
    // Only the syncs of the pod's start continue its trace; later (periodic) syncs are roots
    // sampled at the kubelet's own rate, so the pod-start trace ends and stays small.
    const starting = this.podStates.get(uid)?.firstSeenAt !== undefined;
    return this.syncTracer.run(uid, this.podManager.get(uid), starting, (scope) => this.syncPod(uid, scope));
  }

  /** The pod's runtime status through `runtime`: cached unless `fresh`. */
  private runtimeStatus(uid: string, pod: Pod, runtime: RuntimeManager, fresh = false): Promise<RuntimePodStatus> {
    return this.runtimeCache.status(uid, pod.metadata.name, pod.metadata.namespace, runtime, fresh);
  }

  /** One pod: converge the runtime to the spec and report status (upstream SyncPod / SyncTerminatingPod). */
  async syncPod(uid: string, scope?: SyncScope): Promise<SyncResult> {
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
    // A status computed before the static pod's mirror pod existed is written once it does.
    if (d.static && (await this.mirrorPods.ensure(pod))) this.statusReporter.publishHeld(uid, d);
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
      this.objectManagers?.unregisterPod(uid);
      return;
    }
    this.statusReporter.publish(uid, d, status);
    // Probe workers run on their own timers: outside this sync's span.
    untraced(() => this.prober.addPod(pod));

    // The objects the pod refers to are followed from now on (upstream SyncPod's RegisterPod), unless it is to stop.
    if (!terminating?.aborted) this.objectManagers?.registerPod(pod);
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
    const nothingToDo =
      !actions.killPod &&
      !actions.createSandbox &&
      !actions.containersToKill.length &&
      !actions.containersToStart.length &&
      !actions.initContainersToStart.length &&
      !actions.ephemeralContainersToStart.length;
    if (nothingToDo) return mount.retryAt !== undefined ? { retryAt: mount.retryAt } : undefined;

    const result = await runtime.syncPod(pod, rs, actions, terminating);
    if (result.cancelled) {
      // What this sync killed may still be stopping: the terminating sync reads the runtime afresh.
      this.runtimeCache.invalidate(uid);
      return;
    }
    const failed = podSyncErrorText(result.reasons);
    // Upstream's pod worker: the sync's error, then the pod is synced again after a back-off.
    if (failed) this.log.error('Error syncing pod, skipping', { err: failed, pod: kObj(pod), podUID: uid });
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
    this.objectManagers?.unregisterPod(uid);
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
    this.objectManagers?.unregisterPod(uid);
    // Keep the final status write (and deletion) of an API pod; forget the rest.
    if (!this.podManager.has(uid)) this.podWorkers.forget(uid);
  }

  /** Runtime pods that no source wants any more (orphans after a restart); only once all sources are ready. */
  async housekeeping(): Promise<void> {
    if (!this.sourcesReady() || this.heldByRuntime()) return;
    const known = new Set(this.podManager.uids());
    this.prober.cleanupPods(known);
    this.statusManager.removeOrphanedStatuses(known);
    let sandboxes;
    try {
      sandboxes = await this.recentSandboxes();
    } catch {
      return;
    }
    // Pod directories of pods neither wanted nor in the runtime (upstream cleanupOrphanedPodDirs).
    this.volumes.cleanupOrphans(this.podContentInUse(sandboxes));
    for (const sb of sandboxes) {
      const uid = sb.metadata.uid;
      if (!this.podManager.has(uid)) {
        this.log.info('Found pod not bound to this node any more', { pod: `${sb.labels[LABEL_POD_NAMESPACE] ?? sb.metadata.namespace}/${sb.labels[LABEL_POD_NAME] ?? sb.metadata.name}`, uid });
        this.podWorkers.update(uid);
      }
    }
    for (const b of this.backoffs) b.gc();
    // Pods no source wants any more stop holding watches, however their sync ended.
    for (const uid of this.objectManagers?.registeredPods() ?? []) if (!this.podManager.has(uid)) this.objectManagers!.unregisterPod(uid);
  }

  /** The runtime's sandboxes: the PLEG's relist if it is recent enough (upstream reads its 2 s runtime cache), else listed now. */
  private recentSandboxes(): Promise<readonly PodSandbox[]> {
    const recent = this.pleg.recentLists(RECENT_LISTS_MS);
    return recent ? Promise.resolve(recent.sandboxes) : this.rt.listPodSandbox();
  }

  /** Log directories of pods that are gone (upstream container GC's evictPodLogsDirectories). */
  async containerGC(): Promise<void> {
    if (!this.sourcesReady()) return;
    const inUse = this.podContentInUse(await this.recentSandboxes());
    await evictPodLogsDirectories(this.config.podLogsDir, inUse);
  }

  /** A pod's directories stay while a source wants it or the runtime still holds a sandbox of it (upstream ShouldPodContentBeRemoved). */
  private podContentInUse(sandboxes: readonly { metadata: { uid: string } }[]): (uid: string) => boolean {
    const inRuntime = new Set(sandboxes.map((sb) => sb.metadata.uid));
    return (uid) => this.podManager.has(uid) || inRuntime.has(uid);
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
