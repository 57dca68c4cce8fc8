// The kubelet (upstream pkg/kubelet/kubelet.go): wires the pod sources, pod
// workers, runtime manager, prober, PLEG, status manager, node status and
// lease together. syncPod(uid) is the one place a pod's desired state (from
// the apiserver or a manifest file) meets the runtime's actual state.

import { readFileSync, statfsSync } from 'node:fs';
import { cpus, hostname as osHostname, release, totalmem } from 'node:os';
import { isAlreadyExists, isNotFound, type Node, type NodeStatus, type ObjectReference, type Pod, type PodStatus, type Service, type Taint } from '@kubelab/api';
import type { Logger } from '@kubelab/component-base';
import { ROOT_CONTEXT, context as otelContext, contextFromObject, trace, type Context, type Tracing } from '@kubelab/tracing';
import { Backoff } from './backoff.js';
import { realClock, type Clientset, type Clock, type EventBroadcaster, type SharedIndexInformer, type SharedInformerFactory } from '@kubelab/client';
import { FileSource, isMirrorPod, mirrorPodFor, ANNOTATION_CONFIG_HASH, ANNOTATION_CONFIG_MIRROR } from './config/file.js';
import { Reason, podRef, type Recorder } from './events.js';
import { canAdmitPod, rejectedMessage } from './admission/admit.js';
import { isCriticalPod } from './eviction/helpers.js';
import { EvictionManager } from './eviction/manager.js';
import { collectSummary } from './eviction/stats.js';
import { DEFAULT_EVICTION_HARD, parseThresholdConfig, type Threshold } from './eviction/thresholds.js';
import { ImageManager, authFromDockerConfig } from './images/image-manager.js';
import { computePodActions } from './kuberuntime/actions.js';
import { LABEL_POD_NAME, LABEL_POD_NAMESPACE, type RuntimeService } from './kuberuntime/cri.js';
import { RuntimeManager } from './kuberuntime/manager.js';
import type { KubeletMetrics } from './metrics/metrics.js';
import { emptyPodStatus, type RuntimePodStatus } from './kuberuntime/podstatus.js';
import { NodeLeaseController, LEASE_NAMESPACE } from './nodelease/controller.js';
import { buildNodeStatus, goArch, initialNode, nodeStatusChanged, readyCondition, runtimeErrors, type MachineInfo } from './nodestatus/setters.js';
import { GenericPLEG, type PodLifecycleEvent } from './pleg/generic.js';
import { ProberManager } from './prober/manager.js';
import { Prober, criProbeTransport, type ProbeTransport } from './prober/prober.js';
import { PodWorkers } from './pod-workers.js';
import { DEADLINE_EXCEEDED_MESSAGE, DEADLINE_EXCEEDED_REASON, pastActiveDeadline } from './status/deadline.js';
import { generateAPIPodStatus, type StatusInput, type SyncReason } from './status/generate.js';
import { StatusManager } from './status/manager.js';
import { VolumeManager } from './volumemanager/manager.js';
import type { ObjectSource } from './volumemanager/sources.js';

export const KUBELET_VERSION = 'v1.32.0';

export interface KubeletConfig {
  nodeName: string;
  nodeIP: string;
  nodeLabels: Record<string, string>;
  /** --register-with-taints: spec.taints of the Node this kubelet creates. */
  registerWithTaints?: Taint[];
  podManifestPath: string;
  podLogsDir: string;
  rootDir: string;
  kubeletPort: number;
  maxPods: number;
  nodeStatusUpdateFrequencyMs: number;
  nodeStatusReportFrequencyMs: number;
  nodeLeaseDurationSeconds: number;
  fileCheckFrequencyMs: number;
  syncFrequencyMs: number;
  /** Scales the kubelet's own timers (back-offs, runtime-down threshold); 1 = upstream. */
  timeScale: number;
  registerNode: boolean;
  /** `EventedPLEG=true` also streams GetContainerEvents. */
  featureGates: Record<string, boolean>;
  /** The status manager's reconcile period (upstream syncPeriod, 10 s; not a flag upstream either). */
  statusSyncPeriodMs?: number;
  /** --eviction-hard/--eviction-soft thresholds (absent: upstream's default hard thresholds). */
  evictionThresholds?: Threshold[];
  /** --eviction-pressure-transition-period (5 m). */
  evictionPressureTransitionPeriodMs?: number;
  /** --eviction-max-pod-grace-period (0). */
  evictionMaxPodGracePeriodSeconds?: number;
  /** How often the eviction manager looks (upstream evictionMonitoringPeriod, 10 s). */
  evictionMonitoringPeriodMs?: number;
  /** kubelab: the node's simulated memory capacity (absent: the host's memory). */
  memoryCapacityBytes?: number;
}

export interface KubeletDeps {
  config: KubeletConfig;
  clientset: Clientset;
  informers: SharedInformerFactory;
  runtime: RuntimeService;
  /** Resolves pod-IP:port to where the runtime really serves it (kubelab loopback network). */
  dialTarget?: (podIP: string, port: number) => Promise<{ host: string; port: number }>;
  broadcaster: EventBroadcaster;
  log: Logger;
  clock?: Clock;
  /** Each pod sync runs in a span continuing the pod's trace (absent = no spans). */
  tracing?: Tracing;
  /** Running pods/containers and pod start duration (absent = not recorded). */
  metrics?: KubeletMetrics;
}

/** A pod the kubelet should run, by its kubelet UID (the static pod's own UID for static pods). */
interface DesiredPod {
  pod: Pod;
  static: boolean;
}

export class Kubelet {
  readonly config: KubeletConfig;
  readonly clock: Clock;
  readonly log: Logger;
  readonly recorder: Recorder;
  readonly rt: RuntimeService;
  readonly runtimeManager: RuntimeManager;
  readonly prober: ProberManager;
  readonly pleg: GenericPLEG;
  readonly statusManager: StatusManager;
  readonly podWorkers: PodWorkers;
  readonly lease: NodeLeaseController;
  readonly eviction: EvictionManager;
  /** Pods the eviction manager failed: their status override and kill grace period (upstream killPodNow's status func). */
  private readonly evictions = new Map<string, NonNullable<StatusInput['evict']> & { gracePeriodSeconds: number }>();
  /** Pods whose DeadlineExceeded event was recorded. */
  private readonly deadlineEvents = new Set<string>();
  readonly volumes: VolumeManager;
  private readonly cs: Clientset;
  private readonly informers: SharedInformerFactory;
  private podInformer!: SharedIndexInformer<Pod>;
  private nodeInformer!: SharedIndexInformer<Node>;
  private serviceInformer!: SharedIndexInformer<Service>;
  private fileSource: FileSource | undefined;
  private readonly tracing: Tracing | undefined;
  private readonly metrics: KubeletMetrics | undefined;
  /** When this kubelet first saw each pod (upstream ConfigFirstSeenAnnotationKey), until it first runs. */
  private readonly firstSeen = new Map<string, number>();

  /** Desired pods by kubelet UID. */
  readonly pods = new Map<string, DesiredPod>();
  /** Mirror pods in the API by `namespace/name`. */
  private readonly mirrors = new Map<string, Pod>();
  private readonly reasons = new Map<string, Map<string, SyncReason>>();
  private readonly crashBackoff: Backoff;
  private readonly imageBackoff: Backoff;
  private apiSynced = false;
  private staticSynced = false;
  private stopped = false;
  private timers: NodeJS.Timeout[] = [];

  // Runtime and node state.
  runtimeName = 'containerd';
  runtimeVersion = '';
  private lastBaseRuntimeSync = 0;
  private runtimeNotReady: { reason: string; message: string } | undefined;
  private networkNotReady: { reason: string; message: string } | undefined;
  private node: Node | undefined;
  private lastNodeStatus: NodeStatus | undefined;
  private lastNodeReport = 0;
  private appliedPodCIDR = '';
  private lastReady: string | undefined;
  private machine: MachineInfo;

  constructor(deps: KubeletDeps) {
    this.config = deps.config;
    this.clock = deps.clock ?? realClock;
    this.log = deps.log;
    this.cs = deps.clientset;
    this.informers = deps.informers;
    this.rt = deps.runtime;
    this.tracing = deps.tracing?.enabled ? deps.tracing : undefined;
    this.metrics = deps.metrics;
    const rec = deps.broadcaster.newRecorder({ component: 'kubelet', host: this.config.nodeName });
    // Events are written by the broadcaster's own loop: keep them out of whichever pod's trace is active.
    this.recorder = { event: (ref, type, reason, message) => untraced(() => rec.event(ref, type, reason, message)) };
    const scale = this.config.timeScale;
    this.crashBackoff = new Backoff(10_000 / scale, 300_000 / scale, this.clock);
    this.imageBackoff = new Backoff(10_000 / scale, 300_000 / scale, this.clock);
    this.machine = machineInfo(this.config);

    const transport = criProbeTransport(this.rt);
    const dial = deps.dialTarget;
    const probeTransport: ProbeTransport = dial
      ? {
          exec: transport.exec,
          http: async (url, headers, timeoutMs) => {
            const port = urlPort(url);
            const t = await dial(url.hostname, port);
            const real = new URL(url.href);
            real.hostname = t.host;
            real.port = String(t.port);
            const r = await transport.http(real, { Host: url.host, ...headers }, timeoutMs);
            // Report the pod address the user wrote, not the loopback mapping.
            if (r.result !== 'Failure') return r;
            return { ...r, output: r.output.split(real.href).join(url.href).split(`${t.host}:${t.port}`).join(`${url.hostname}:${port}`) };
          },
          tcp: async (host, port, timeoutMs) => {
            const t = await dial(host, port);
            const r = await transport.tcp(t.host, t.port, timeoutMs);
            return r.result === 'Failure' ? { ...r, output: r.output.split(`${t.host}:${t.port}`).join(`${host}:${port}`) } : r;
          },
          // The output already names the pod address (displayAddr).
          grpc: async (target) => transport.grpc({ ...target, ...(target.host ? await dial(target.host, target.port) : {}) }),
        }
      : transport;

    this.statusManager = new StatusManager(
      {
        // Status writes join the pod's trace (its kubelab.io/traceparent), whichever sync queued them.
        get: (ns, name) => untraced(() => this.cs.core.pods(ns).get(name)),
        updateStatus: (pod) => untraced(() => this.cs.core.pods(pod.metadata.namespace).updateStatus(pod, this.tracing ? { traceContext: contextFromObject(pod) } : {})),
        deleteNow: async (ns, name, uid) => {
          await this.cs.core.pods(ns).delete(name, { gracePeriodSeconds: 0, preconditions: { uid } });
        },
      },
      this.log,
      (uid) => {
        const d = this.pods.get(uid);
        if (!d) return undefined;
        if (d.static) return this.mirrors.get(`${d.pod.metadata.namespace}/${d.pod.metadata.name}`);
        return this.podInformer?.getIndexer().getByKey(`${d.pod.metadata.namespace}/${d.pod.metadata.name}`);
      },
    );
    this.prober = new ProberManager(new Prober(probeTransport, this.recorder, this.config.timeScale), this.statusManager, this.clock, true, this.config.timeScale, (id) => this.containerStarts.get(id));
    // Liveness/startup failures restart containers; readiness changes the status.
    for (const rm of [this.prober.liveness, this.prober.startup, this.prober.readiness]) rm.onUpdate((u) => this.podWorkers.update(u.podUid));

    // ConfigMaps and Secrets read from the apiserver on use (upstream's Get strategy); not found → undefined.
    const objects: ObjectSource = {
      configMap: (ns, name) => orUndefined(() => this.cs.core.configMaps(ns).get(name)),
      secret: (ns, name) => orUndefined(() => this.cs.core.secrets(ns).get(name)),
    };
    const allocatable = () => ({ ...(this.lastNodeStatus?.allocatable ?? {}) });
    this.volumes = new VolumeManager({ rootDir: this.config.rootDir, sources: objects, recorder: this.recorder, clock: this.clock, allocatable, timeScale: this.config.timeScale });
    this.runtimeManager = new RuntimeManager({
      rt: this.rt,
      images: new ImageManager(this.rt, this.imageBackoff, this.recorder, this.clock),
      recorder: this.recorder,
      crashBackoff: this.crashBackoff,
      clock: this.clock,
      podLogsDir: this.config.podLogsDir,
      runtimeName: this.runtimeName,
      nodeName: this.config.nodeName,
      nodeIPs: () => [this.config.nodeIP],
      pullSecrets: (pod, image) => this.pullSecrets(pod, image),
      objects,
      allocatable,
      relaxedEnvNames: this.config.featureGates.RelaxedEnvironmentVariableValidation !== false,
      // Every Service, for the containers' service environment variables (upstream serviceLister).
      services: () => this.serviceInformer?.getIndexer().list() ?? [], // undefined before start()
      volumes: this.volumes,
      httpHook: async (url, timeoutMs) => {
        const target = dial ? await dial(url.hostname, urlPort(url)) : undefined;
        const real = new URL(url.href);
        if (target) {
          real.hostname = target.host;
          real.port = String(target.port);
        }
        const r = await transport.http(real, {}, timeoutMs);
        if (r.result === 'Unknown') return r.error;
        return r.result === 'Failure' ? r.output : undefined;
      },
    });
    this.podWorkers = new PodWorkers(
      (uid) => this.tracedSyncPod(uid),
      (uid, err) => this.log.warn('pod sync failed', { pod: this.podName(uid), err }),
      () => this.clock.now(),
    );
    this.pleg = new GenericPLEG(this.rt, this.clock, (events) => this.onPlegEvents(events), 1000, 3 * 60_000, this.config.featureGates.EventedPLEG === true);
    if (this.metrics) this.pleg.observeRelist = this.metrics.observeRelist;
    this.eviction = new EvictionManager({
      config: {
        // Pod time runs timeScale times faster: so do grace and transition periods.
        thresholds: (this.config.evictionThresholds ?? parseThresholdConfig({ hard: DEFAULT_EVICTION_HARD })).map((t) => ({ ...t, gracePeriodMs: t.gracePeriodMs / scale })),
        pressureTransitionPeriodMs: (this.config.evictionPressureTransitionPeriodMs ?? 300_000) / scale,
        maxPodGracePeriodSeconds: this.config.evictionMaxPodGracePeriodSeconds ?? 0,
      },
      summary: () => collectSummary({ rt: this.rt, memoryCapacityBytes: this.machine.memoryBytes, rootDir: this.config.rootDir }),
      activePods: () => this.activePods(),
      killPod: (pod, gracePeriodSeconds, st) => {
        const uid = pod.metadata.uid ?? '';
        this.evictions.set(uid, { ...st, gracePeriodSeconds });
        this.podWorkers.update(uid, { terminate: true });
      },
      recorder: this.recorder,
      nodeRef: () => this.nodeRef(),
      clock: this.clock,
      log: this.log,
    });
    this.lease = new NodeLeaseController({
      api: {
        get: (name) => this.cs.coordination.leases(LEASE_NAMESPACE).get(name),
        create: (l) => this.cs.coordination.leases(LEASE_NAMESPACE).create(l),
        update: (l) => this.cs.coordination.leases(LEASE_NAMESPACE).update(l),
      },
      nodeName: this.config.nodeName,
      leaseDurationSeconds: this.config.nodeLeaseDurationSeconds,
      nodeUid: () => this.node?.metadata.uid,
      log: this.log,
      now: () => this.clock.now(),
    });
  }

  private podName(uid: string): string {
    const p = this.pods.get(uid)?.pod;
    return p ? `${p.metadata.namespace}/${p.metadata.name}` : uid;
  }

  // ------------------------------------------------------------ lifecycle

  async start(): Promise<void> {
    this.log.info('Starting kubelet', { node: this.config.nodeName, version: KUBELET_VERSION });
    await this.updateRuntimeUp();
    this.every(5_000, () => this.updateRuntimeUp());

    this.podInformer = this.informers.core.pods({ fieldSelector: `spec.nodeName=${this.config.nodeName}` });
    this.podInformer.addEventHandler({
      onAdd: (p) => this.onApiPod(p),
      onUpdate: (_o, p) => this.onApiPod(p),
      onDelete: (p) => this.onApiPodDeleted('metadata' in p ? p : (p as { obj: Pod }).obj),
    });
    this.nodeInformer = this.informers.core.nodes({ fieldSelector: `metadata.name=${this.config.nodeName}` });
    this.serviceInformer = this.informers.core.services();
    this.nodeInformer.addEventHandler({ onAdd: (n) => this.onNode(n), onUpdate: (_o, n) => this.onNode(n) });

    // Without a manifest path the file source has nothing to wait for.
    this.staticSynced = !this.config.podManifestPath;

    if (this.config.registerNode) void this.registerWithRetry();
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
    this.podInformer.run();
    this.nodeInformer.run();
    this.serviceInformer.run();
    this.pleg.start();
    // The lease starts once the Node exists, so it is created owned by it.
    if (!this.config.registerNode) this.lease.start();
    this.every(this.config.nodeStatusUpdateFrequencyMs, () => this.syncNodeStatus());
    this.every(2_000, () => this.housekeeping());
    // Upstream's sync loop ticks every second and syncs pods whose active deadline passed (ShouldSync).
    this.every(1_000, () => this.checkActiveDeadlines());
    this.every((this.config.evictionMonitoringPeriodMs ?? 10_000) / this.config.timeScale, () => this.eviction.synchronize());
    // Reconcile: re-post a cached status the API no longer shows (upstream status manager syncBatch).
    this.every(this.config.statusSyncPeriodMs ?? 10_000, () => this.statusManager.syncBatch());
    this.every(this.config.syncFrequencyMs, () => {
      for (const uid of this.pods.keys()) this.podWorkers.update(uid);
    });
    void this.podInformer.whenSynced().then(() => {
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

  // ------------------------------------------------------------ sources

  private onApiPod(pod: Pod): void {
    if (isMirrorPod(pod)) {
      this.mirrors.set(`${pod.metadata.namespace}/${pod.metadata.name}`, pod);
      for (const [uid, d] of this.pods) if (d.static && d.pod.metadata.name === pod.metadata.name && d.pod.metadata.namespace === pod.metadata.namespace) this.podWorkers.update(uid);
      return;
    }
    const uid = pod.metadata.uid ?? '';
    const prev = this.pods.get(uid)?.pod;
    if (!prev && !pod.status?.startTime) this.firstSeen.set(uid, this.clock.now());
    if (!prev) this.admitNewPod(uid, pod);
    this.pods.set(uid, { pod, static: false });
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
    const status = this.lastNodeStatus ?? this.node?.status;
    if (!this.node || !status?.allocatable || pod.status?.startTime || pod.metadata.deletionTimestamp) return;
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return;
    const others = this.activePods().filter((p) => p.metadata.uid !== uid);
    const r = canAdmitPod(pod, { ...this.node, status }, others, this.eviction.pressureConditions(), { isStatic: false, isCritical: isCriticalPod(pod) });
    if (r.admit) return;
    this.log.info('Pod admission denied', { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, reason: r.reason, message: r.message });
    this.recorder.event(podRef(pod), 'Warning', r.reason, r.message);
    this.evictions.set(uid, { reason: r.reason, message: rejectedMessage(r.message), gracePeriodSeconds: 0 });
  }

  private onApiPodDeleted(pod: Pod): void {
    if (isMirrorPod(pod)) {
      const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
      if (this.mirrors.get(key)?.metadata.uid === pod.metadata.uid) this.mirrors.delete(key);
      // A deleted mirror pod is recreated by the static pod's next sync.
      for (const [uid, d] of this.pods) if (d.static && `${d.pod.metadata.namespace}/${d.pod.metadata.name}` === key) this.podWorkers.update(uid);
      return;
    }
    const uid = pod.metadata.uid ?? '';
    this.pods.delete(uid);
    this.firstSeen.delete(uid);
    this.podWorkers.update(uid, { terminate: true });
  }

  private onStaticPods(pods: Pod[]): void {
    const next = new Set(pods.map((p) => p.metadata.uid ?? ''));
    for (const [uid, d] of this.pods) {
      if (d.static && !next.has(uid)) {
        this.pods.delete(uid);
        this.podWorkers.update(uid, { terminate: true });
        void this.deleteMirror(d.pod);
      }
    }
    for (const p of pods) {
      const uid = p.metadata.uid ?? '';
      if (!this.pods.has(uid)) {
        this.log.info('Static pod added', { pod: `${p.metadata.namespace}/${p.metadata.name}`, uid });
        this.pods.set(uid, { pod: p, static: true });
        this.firstSeen.set(uid, this.clock.now());
        this.podWorkers.update(uid);
      }
    }
  }

  private onNode(n: Node): void {
    this.node = n;
    const cidr = n.spec?.podCIDR ?? n.spec?.podCIDRs?.[0] ?? '';
    if (cidr && cidr !== this.appliedPodCIDR) {
      this.rt.updateRuntimeConfig(cidr).then(
        () => {
          this.appliedPodCIDR = cidr;
          this.log.info('Updating runtime config through cri with podcidr', { CIDR: cidr });
          // The runtime's network may be ready now: look at once rather than in 5 s.
          void this.updateRuntimeUp();
        },
        (err) => this.log.warn('Failed to update runtime config with pod CIDR', { CIDR: cidr, err }),
      );
    }
  }

  /**
   * PLEG events mark the pod's cached runtime status stale and sync it —
   * unless the cache already shows exactly that state (the kubelet's own
   * start or stop, read back right after it acted).
   */
  private onPlegEvents(events: PodLifecycleEvent[]): void {
    const stale = new Set<string>();
    for (const e of events) {
      const cached = this.runtimeCache.get(e.podUid);
      const known =
        cached &&
        // Only starts the kubelet itself made are skipped; a death always needs a sync.
        e.type === 'ContainerStarted' &&
        (cached.containers.some((c) => c.id === e.data && c.state === 'running') || cached.sandboxes.some((s) => s.id === e.data && s.ready));
      if (!known) stale.add(e.podUid);
    }
    for (const uid of stale) {
      this.runtimeCache.delete(uid);
      this.podWorkers.update(uid);
    }
  }

  /** The pod's runtime status: the cached read unless PLEG saw a change since (upstream podCache). */
  private async runtimeStatus(uid: string, pod: Pod, fresh = false, runtime = this.runtimeManager): Promise<RuntimePodStatus> {
    const cached = this.runtimeCache.get(uid);
    if (cached && !fresh) return cached;
    // A pod this kubelet never ran and the first relist did not find has nothing in the runtime yet.
    if (!fresh && !cached && this.pleg.relists > 0 && !this.seenByRuntime.has(uid) && !this.pleg.hasPod(uid)) {
      this.seenByRuntime.add(uid);
      return emptyPodStatus(uid, pod.metadata.name, pod.metadata.namespace);
    }
    this.seenByRuntime.add(uid);
    const rs = await runtime.getPodStatus(uid, pod.metadata.name, pod.metadata.namespace);
    this.runtimeCache.set(uid, rs);
    return rs;
  }
  private readonly runtimeCache = new Map<string, RuntimePodStatus>();
  private readonly seenByRuntime = new Set<string>();

  // ------------------------------------------------------------ pods

  /** The status last computed for a pod, falling back to the API object's. */
  private oldStatus(uid: string, d: DesiredPod): PodStatus | undefined {
    const cached = this.statusManager.getPodStatus(uid);
    if (cached) return cached;
    if (d.static) return this.mirrors.get(`${d.pod.metadata.namespace}/${d.pod.metadata.name}`)?.status;
    return d.pod.status;
  }

  private statusTarget(uid: string, d: DesiredPod): { namespace: string; name: string; uid?: string } {
    if (d.static) {
      const m = this.mirrors.get(`${d.pod.metadata.namespace}/${d.pod.metadata.name}`);
      return { namespace: d.pod.metadata.namespace ?? 'default', name: d.pod.metadata.name ?? '', ...(m?.metadata.uid ? { uid: m.metadata.uid } : {}) };
    }
    return { namespace: d.pod.metadata.namespace ?? 'default', name: d.pod.metadata.name ?? '', uid };
  }

  private computeStatus(uid: string, d: DesiredPod, rs: RuntimePodStatus, terminal = false): PodStatus {
    for (const c of rs.containers) if (c.state === 'running') this.containerStarts.set(`${this.runtimeName}://${c.id}`, c.startedAt);
    return generateAPIPodStatus({
      pod: d.pod,
      runtime: rs,
      oldStatus: this.oldStatus(uid, d),
      reasons: this.reasons.get(uid),
      runtimeName: this.runtimeName,
      nodeIPs: [this.config.nodeIP],
      now: this.clock.now(),
      podIsTerminal: terminal,
      applyProbes: (pod, status) => this.prober.updatePodStatus(pod, status),
      evict: this.shouldEvict(uid, d),
    });
  }

  /** A kubelet module failing the pod (upstream PodSyncHandlers' ShouldEvict): eviction, then the active deadline. */
  private shouldEvict(uid: string, d: DesiredPod): StatusInput['evict'] {
    const evicted = this.evictions.get(uid);
    if (evicted) return { reason: evicted.reason, message: evicted.message, condition: evicted.condition };
    const old = this.oldStatus(uid, d);
    if (old?.phase === 'Succeeded' || old?.phase === 'Failed') return undefined;
    if (!pastActiveDeadline(d.pod, old, this.clock.now(), this.config.timeScale)) return undefined;
    if (!this.deadlineEvents.has(uid)) {
      this.deadlineEvents.add(uid);
      this.recorder.event(podRef(d.pod), 'Normal', DEADLINE_EXCEEDED_REASON, DEADLINE_EXCEEDED_MESSAGE);
    }
    return { reason: DEADLINE_EXCEEDED_REASON, message: DEADLINE_EXCEEDED_MESSAGE };
  }

  /** Syncs pods whose active deadline just passed (upstream activeDeadlineHandler.ShouldSync). */
  private checkActiveDeadlines(): void {
    for (const [uid, d] of this.pods) {
      if (!d.pod.spec?.activeDeadlineSeconds || this.deadlineEvents.has(uid)) continue;
      const old = this.oldStatus(uid, d);
      if (old?.phase === 'Succeeded' || old?.phase === 'Failed') continue;
      if (pastActiveDeadline(d.pod, old, this.clock.now(), this.config.timeScale)) this.podWorkers.update(uid, { terminate: true });
    }
  }

  /** Pods the eviction manager may evict: not terminal, not being deleted, not already evicted (upstream GetActivePods). */
  private activePods(): Pod[] {
    const out: Pod[] = [];
    for (const [uid, d] of this.pods) {
      if (d.pod.metadata.deletionTimestamp || this.evictions.has(uid)) continue;
      const phase = this.oldStatus(uid, d)?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') continue;
      out.push(d.pod);
    }
    return out;
  }

  private publishStatus(uid: string, d: DesiredPod, status: PodStatus): void {
    this.observePodStart(uid, status);
    // A static pod without its mirror yet has nowhere to report.
    if (d.static && !this.mirrors.has(`${d.pod.metadata.namespace}/${d.pod.metadata.name}`)) {
      this.staticStatus.set(uid, status);
      return;
    }
    this.statusManager.setPodStatus(uid, this.statusTarget(uid, d), status);
  }
  private readonly staticStatus = new Map<string, PodStatus>();

  /** kubelet_pod_start_duration_seconds: first seen → first Running, once per pod (upstream SyncPod). */
  private observePodStart(uid: string, status: PodStatus): void {
    const seen = this.firstSeen.get(uid);
    if (seen === undefined || status.phase !== 'Running') return;
    this.firstSeen.delete(uid);
    this.metrics?.observePodStart((this.clock.now() - seen) / 1000);
  }
  /** containerID → precise start time, for probe initial delays. */
  private readonly containerStarts = new Map<string, number>();

  /**
   * A pod sync in a `syncPod` span continuing the pod's trace (the apiserver
   * recorded the creating request's context on it), so its CRI calls and
   * status writes join that trace. Without tracing: the sync itself.
   */
  private tracedSyncPod(uid: string): Promise<{ retryAt?: number } | void> {
    const tracing = this.tracing;
    if (!tracing) return this.syncPod(uid);
    const d = this.pods.get(uid);
    const pod = d && !d.static ? d.pod : undefined;
    const attributes = () => ({ 'k8s.pod.uid': uid, ...(d ? { 'k8s.pod.name': d.pod.metadata.name ?? '', 'k8s.namespace.name': d.pod.metadata.namespace ?? '' } : {}) });
    // Only the syncs of the pod's start continue its trace; later (periodic) syncs are roots
    // sampled at the kubelet's own rate, so the pod-start trace ends and stays small.
    const parent = this.firstSeen.has(uid) ? contextFromObject(pod) : ROOT_CONTEXT;
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
    const opts = { traceContext: ctx };
    const objects: ObjectSource = {
      configMap: (ns, name) => orUndefined(() => this.cs.core.configMaps(ns).get(name, opts)),
      secret: (ns, name) => orUndefined(() => this.cs.core.secrets(ns).get(name, opts)),
    };
    return { runtime: this.runtimeManager.withCalls(rt ?? this.rt, objects), objects };
  }

  /** One pod: converge the runtime to the spec and report status (upstream SyncPod / SyncTerminatingPod). */
  async syncPod(uid: string, scope?: SyncScope): Promise<{ retryAt?: number } | void> {
    const runtime = scope?.runtime ?? this.runtimeManager;
    const d = this.pods.get(uid);
    if (!d) {
      // Until every source has synced, an unknown pod may just not have arrived yet: never kill it.
      if (!this.sourcesReady()) return;
      return this.syncRemovedPod(uid);
    }
    const pod = d.pod;
    // Aborted once the pod is to stop: this sync then starts nothing, and the next one terminates it.
    const terminating = this.podWorkers.terminationSignal(uid);
    if (d.static) await this.ensureMirrorPod(d);
    let rs = await this.runtimeStatus(uid, pod, false, runtime);

    if (pod.metadata.deletionTimestamp) return this.syncTerminatingPod(uid, d, rs, runtime);
    // Without pod networking only host-network pods can start (upstream NetworkNotReady).
    if (this.networkNotReady && !pod.spec?.hostNetwork && !rs.sandboxes.some((s) => s.ready)) {
      const msg = `network is not ready: container runtime network not ready: NetworkReady=false reason:${this.networkNotReady.reason} message:${this.networkNotReady.message}`;
      this.recorder.event(podRef(pod), 'Warning', 'NetworkNotReady', msg);
      this.publishStatus(uid, d, this.computeStatus(uid, d, rs));
      return { retryAt: this.clock.now() + 2000 };
    }

    let status = this.computeStatus(uid, d, rs);
    if (status.phase === 'Succeeded' || status.phase === 'Failed') {
      // Done: stop what is left (the sandbox) and keep reporting the final status.
      if (rs.sandboxes.some((s) => s.ready) || rs.containers.some((c) => c.state === 'running')) {
        await runtime.killPod(pod, rs, this.evictions.get(uid)?.gracePeriodSeconds);
        rs = await this.runtimeStatus(uid, pod, true, runtime);
        status = this.computeStatus(uid, d, rs, true);
      }
      this.publishStatus(uid, d, status);
      this.prober.removePod(uid);
      return;
    }
    this.publishStatus(uid, d, status);
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
      this.runtimeName,
    );
    const nothingToDo =
      !actions.killPod && !actions.createSandbox && !actions.containersToKill.length && !actions.containersToStart.length && !actions.initContainersToStart.length;
    if (nothingToDo) return mount.retryAt !== undefined ? { retryAt: mount.retryAt } : undefined;

    const result = await runtime.syncPod(pod, rs, actions, terminating);
    if (result.cancelled) {
      // What this sync killed may still be stopping: the terminating sync reads the runtime afresh.
      this.runtimeCache.delete(uid);
      return;
    }
    let reasons = this.reasons.get(uid);
    if (!reasons) this.reasons.set(uid, (reasons = new Map()));
    for (const [name, r] of result.reasons) {
      if (r) reasons.set(name, r);
      else reasons.delete(name);
    }
    if (result.changes.killed) rs = await this.runtimeStatus(uid, pod, true, runtime);
    else {
      rs = await runtime.refreshAfter(rs, result.changes);
      this.runtimeCache.set(uid, rs);
    }
    this.publishStatus(uid, d, this.computeStatus(uid, d, rs));
    untraced(() => this.prober.triggerPod(uid));
    if (actions.initFailed) this.podWorkers.update(uid);
    void this.runtimeManager.gcContainers(rs).catch(() => {});
    const retryAt = Math.min(result.retryAt ?? Infinity, mount.retryAt ?? Infinity);
    return Number.isFinite(retryAt) ? { retryAt } : undefined;
  }

  /** Deleted in the API: stop within the grace period, report, remove, confirm the deletion. */
  private async syncTerminatingPod(uid: string, d: DesiredPod, rs: RuntimePodStatus, runtime = this.runtimeManager): Promise<void> {
    const pod = d.pod;
    // No liveness or startup failure restarts anything now; readiness is reported until the containers stop.
    this.prober.stopLivenessAndStartup(uid);
    if (rs.containers.some((c) => c.state === 'running' || c.state === 'created') || rs.sandboxes.some((s) => s.ready)) {
      await runtime.killPod(pod, rs);
      rs = await this.runtimeStatus(uid, pod, true, runtime);
    }
    this.prober.removePod(uid);
    this.publishStatus(uid, d, this.computeStatus(uid, d, rs, true));
    await runtime.removePod(rs);
    this.statusManager.markTerminated(uid);
  }

  /** Gone from every source: kill whatever the runtime still runs for it (upstream HandlePodCleanups). */
  private async syncRemovedPod(uid: string): Promise<void> {
    this.prober.removePod(uid);
    const rs = await this.runtimeManager.getPodStatus(uid);
    if (rs.containers.length || rs.sandboxes.length) {
      const labels = { name: rs.name, namespace: rs.namespace };
      const pod: Pod = { metadata: { uid, name: labels.name, namespace: labels.namespace }, spec: { containers: [] } };
      this.log.info('Killing unwanted pod', { pod: `${labels.namespace}/${labels.name}`, uid });
      await this.runtimeManager.killPod(pod, rs);
      await this.runtimeManager.removePod(await this.runtimeManager.getPodStatus(uid));
    }
    this.reasons.delete(uid);
    this.evictions.delete(uid);
    this.deadlineEvents.delete(uid);
    this.volumes.cleanupPod(uid);
    this.staticStatus.delete(uid);
    this.runtimeCache.delete(uid);
    this.seenByRuntime.delete(uid);
    for (const c of rs.containers) this.containerStarts.delete(`${this.runtimeName}://${c.id}`);
    if (!this.pods.has(uid)) {
      // Keep the final status write (and deletion) of an API pod; forget the rest.
      this.podWorkers.forget(uid);
    }
  }

  /** Runtime pods that no source wants any more (orphans after a restart); only once all sources are ready. */
  async housekeeping(): Promise<void> {
    if (!this.sourcesReady()) return;
    this.prober.cleanupPods(new Set(this.pods.keys()));
    let sandboxes;
    try {
      sandboxes = await this.rt.listPodSandbox();
    } catch {
      return;
    }
    // Pod directories of pods neither wanted nor in the runtime (upstream cleanupOrphanedPodDirs).
    const inRuntime = new Set(sandboxes.map((sb) => sb.metadata.uid));
    this.volumes.cleanupOrphans((uid) => this.pods.has(uid) || inRuntime.has(uid));
    for (const sb of sandboxes) {
      const uid = sb.metadata.uid;
      if (!this.pods.has(uid)) {
        this.log.info('Found pod not bound to this node any more', { pod: `${sb.labels[LABEL_POD_NAMESPACE] ?? sb.metadata.namespace}/${sb.labels[LABEL_POD_NAME] ?? sb.metadata.name}`, uid });
        this.podWorkers.update(uid);
      }
    }
    this.crashBackoff.gc();
    this.imageBackoff.gc();
  }

  private async ensureMirrorPod(d: DesiredPod): Promise<void> {
    if (!this.node?.metadata.uid) return;
    const key = `${d.pod.metadata.namespace}/${d.pod.metadata.name}`;
    const m = this.mirrors.get(key);
    const hash = d.pod.metadata.annotations?.[ANNOTATION_CONFIG_HASH];
    if (m && m.metadata.annotations?.[ANNOTATION_CONFIG_MIRROR] === hash && !m.metadata.deletionTimestamp) return;
    const pods = this.cs.core.pods(d.pod.metadata.namespace);
    if (m) {
      this.log.info('Deleting mirror pod because it is outdated', { pod: key });
      await pods.delete(m.metadata.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid: m.metadata.uid } }).catch(() => {});
      this.mirrors.delete(key);
    }
    try {
      const created = await pods.create(mirrorPodFor(d.pod, { name: this.config.nodeName, uid: this.node.metadata.uid }));
      this.mirrors.set(key, created);
      const pending = this.staticStatus.get(d.pod.metadata.uid ?? '');
      if (pending) this.statusManager.setPodStatus(d.pod.metadata.uid ?? '', this.statusTarget(d.pod.metadata.uid ?? '', d), pending);
    } catch (err) {
      if (!isAlreadyExists(err)) this.log.warn('Failed creating a mirror pod', { pod: key, err });
    }
  }

  private async deleteMirror(staticPod: Pod): Promise<void> {
    const key = `${staticPod.metadata.namespace}/${staticPod.metadata.name}`;
    const m = this.mirrors.get(key);
    if (!m) return;
    try {
      await this.cs.core.pods(staticPod.metadata.namespace).delete(m.metadata.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid: m.metadata.uid } });
    } catch (err) {
      if (!isNotFound(err)) this.log.warn('Failed deleting a mirror pod', { pod: key, err });
    }
    this.mirrors.delete(key);
  }

  private async pullSecrets(pod: Pod, image: string) {
    const out = [];
    for (const ref of pod.spec?.imagePullSecrets ?? []) {
      if (!ref.name) continue;
      try {
        const s = await this.cs.core.secrets(pod.metadata.namespace).get(ref.name);
        const raw = s.data?.['.dockerconfigjson'] ?? s.data?.['.dockercfg'];
        if (raw) out.push(...authFromDockerConfig(image, Buffer.from(raw, 'base64').toString()));
      } catch (err) {
        this.recorder.event(podRef(pod), 'Warning', 'FailedToRetrieveImagePullSecret', `Unable to retrieve some image pull secrets (${ref.name}); attempting to pull the image may not succeed.`);
        this.log.warn('Unable to retrieve pull secret', { secret: ref.name, err });
      }
    }
    return out;
  }

  // ------------------------------------------------------------ node

  /** Runtime Status every 5 s (upstream updateRuntimeUp). */
  private async updateRuntimeUp(): Promise<void> {
    try {
      if (!this.runtimeVersion) {
        const v = await this.rt.version();
        this.runtimeName = v.runtimeName || 'containerd';
        this.runtimeVersion = v.runtimeVersion;
      }
      const conds = await this.rt.status();
      const rr = conds.find((c) => c.type === 'RuntimeReady');
      const nr = conds.find((c) => c.type === 'NetworkReady');
      this.runtimeNotReady = rr && !rr.status ? { reason: rr.reason, message: rr.message } : !rr ? { reason: 'RuntimeReadyMissing', message: 'runtime did not report RuntimeReady' } : undefined;
      this.networkNotReady = nr && !nr.status ? { reason: nr.reason, message: nr.message } : undefined;
      if (!this.runtimeNotReady) this.lastBaseRuntimeSync = this.clock.now();
    } catch (err) {
      this.log.warn('Container runtime status check failed', { err: (err as Error).message });
    }
    this.maybeReportReadyChange();
  }

  /** Node Ready flips are reported at once, not at the next period. */
  private maybeReportReadyChange(): void {
    const ready = readyCondition(runtimeErrors(this.health())).status;
    if (this.lastReady !== undefined && this.lastReady !== ready) void this.syncNodeStatus().catch(() => {});
    this.lastReady = ready;
  }

  private health() {
    const pleg = this.pleg.healthy();
    return {
      lastBaseRuntimeSync: this.lastBaseRuntimeSync,
      baseRuntimeSyncThresholdMs: 30_000 / this.config.timeScale,
      ...(this.runtimeNotReady ? { runtimeNotReady: this.runtimeNotReady } : {}),
      ...(this.networkNotReady ? { networkNotReady: this.networkNotReady } : {}),
      ...(pleg.ok ? {} : { plegError: pleg.message }),
      now: this.clock.now(),
    };
  }

  private nodeRef(): ObjectReference {
    return { kind: 'Node', name: this.config.nodeName, uid: this.config.nodeName, apiVersion: '', namespace: '' };
  }

  private async registerWithRetry(): Promise<void> {
    let delay = 100;
    while (!this.stopped) {
      try {
        await this.registerNode();
        return;
      } catch (err) {
        this.log.warn('Unable to register node with API server', { node: this.config.nodeName, err });
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 7000);
      }
    }
  }

  /** Creates the Node, or adopts an existing one (upstream registerWithAPIServer). */
  async registerNode(): Promise<void> {
    const nodes = this.cs.core.nodes();
    const desired = initialNode(this.config.nodeName, this.config.nodeLabels, 'linux', goArch(process.arch), this.config.registerWithTaints);
    this.recorder.event(this.nodeRef(), 'Normal', Reason.Starting, 'Starting kubelet.');
    let node: Node;
    try {
      node = await nodes.create(desired);
      this.log.info('Successfully registered node', { node: this.config.nodeName });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      const existing = await nodes.get(this.config.nodeName);
      existing.metadata.labels = { ...(existing.metadata.labels ?? {}), ...desired.metadata.labels };
      existing.metadata.annotations = { ...desired.metadata.annotations, ...(existing.metadata.annotations ?? {}) };
      node = await nodes.update(existing);
    }
    this.node = node;
    this.lastNodeStatus = node.status;
    if (this.stopped) return;
    this.lease.start();
    await this.syncNodeStatus(true);
    this.recorder.event(this.nodeRef(), 'Normal', Reason.NodeAllocatableEnforced, 'Updated Node Allocatable limit across pods');
  }

  /** Node status every --node-status-update-frequency; posted on change or every report frequency. */
  async syncNodeStatus(force = false): Promise<void> {
    if (!this.node?.metadata.uid) return;
    let images: { names: string[]; sizeBytes: number }[];
    try {
      images = (await this.rt.listImages())
        .sort((a, b) => b.size - a.size)
        .slice(0, 50)
        .map((i) => ({ names: [...i.repoDigests, ...i.repoTags], sizeBytes: i.size }));
    } catch {
      images = this.lastNodeStatus?.images?.map((i) => ({ names: i.names ?? [], sizeBytes: i.sizeBytes ?? 0 })) ?? [];
    }
    const now = this.clock.now();
    const next = buildNodeStatus({
      machine: this.machine,
      health: this.health(),
      nodeIP: this.config.nodeIP,
      hostname: this.config.nodeName,
      kubeletPort: this.config.kubeletPort,
      containerRuntimeVersion: this.runtimeVersion ? `${this.runtimeName}://${this.runtimeVersion}` : '',
      images,
      pressure: this.eviction.pressure(),
      old: this.lastNodeStatus,
      now,
    });
    if (!force && !nodeStatusChanged(this.lastNodeStatus, next) && now - this.lastNodeReport < this.config.nodeStatusReportFrequencyMs) return;
    const nodes = this.cs.core.nodes();
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = attempt === 0 && this.node ? this.node : await nodes.get(this.config.nodeName);
      try {
        const updated = await nodes.updateStatus({ ...current, status: { ...current.status, ...next } });
        this.node = updated;
        break;
      } catch (err) {
        if (attempt === 4 || !(err as { reason?: string }).reason || (err as { reason?: string }).reason !== 'Conflict') throw err;
      }
    }
    this.recordNodeConditionEvents(this.lastNodeStatus, next);
    this.lastNodeStatus = next;
    this.lastNodeReport = now;
  }

  /** "Node node-1 status is now: NodeReady" on every condition transition (upstream recordNodeStatusEvent). */
  private recordNodeConditionEvents(prev: NodeStatus | undefined, next: NodeStatus): void {
    const names: Record<string, [string, string]> = {
      MemoryPressure: ['NodeHasInsufficientMemory', 'NodeHasSufficientMemory'],
      DiskPressure: ['NodeHasDiskPressure', 'NodeHasNoDiskPressure'],
      PIDPressure: ['NodeHasInsufficientPID', 'NodeHasSufficientPID'],
      Ready: ['NodeReady', 'NodeNotReady'],
    };
    for (const c of next.conditions ?? []) {
      const before = prev?.conditions?.find((p) => p.type === c.type);
      if (before?.status === c.status && before.lastHeartbeatTime) continue;
      const pair = names[c.type];
      if (!pair) continue;
      const reason = c.status === 'True' ? pair[0] : pair[1];
      this.recorder.event(this.nodeRef(), 'Normal', reason, `Node ${this.config.nodeName} status is now: ${reason}`);
    }
  }

  /** Pods as the kubelet's /pods endpoint lists them (static pods under their own UID). */
  runningPods(): Pod[] {
    return [...this.pods.entries()].map(([uid, d]) => ({ ...d.pod, apiVersion: 'v1', kind: 'Pod', status: this.statusManager.getPodStatus(uid) ?? this.staticStatus.get(uid) ?? d.pod.status ?? {} }));
  }

  /** Finds a pod by namespace/name among the desired pods. */
  findPod(namespace: string, name: string): { uid: string; pod: Pod } | undefined {
    for (const [uid, d] of this.pods) if (d.pod.metadata.namespace === namespace && d.pod.metadata.name === name) return { uid, pod: d.pod };
    return undefined;
  }
}

/** The port of a URL, including the scheme's default that URL leaves out. */
function urlPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** Whether anything but status and bookkeeping metadata differs (upstream checkAndUpdatePod). */
export function specChanged(a: Pod, b: Pod): boolean {
  const view = (p: Pod) =>
    JSON.stringify([p.spec, p.metadata.labels, p.metadata.annotations, p.metadata.deletionTimestamp, p.metadata.deletionGracePeriodSeconds]);
  return view(a) !== view(b);
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

/** What cadvisor would report: CPUs, memory, the root-dir filesystem, OS identity. */
export function machineInfo(c: Pick<KubeletConfig, 'rootDir' | 'maxPods' | 'memoryCapacityBytes'>): MachineInfo {
  let storage = 0;
  for (const dir of [c.rootDir, '/']) {
    try {
      const s = statfsSync(dir);
      storage = s.blocks * s.bsize;
      break;
    } catch {
      // try the next
    }
  }
  const osRelease = readText('/etc/os-release');
  const pretty = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(osRelease)?.[1] ?? 'Linux';
  return {
    cpu: cpus().length,
    memoryBytes: c.memoryCapacityBytes ?? totalmem(),
    ephemeralStorageBytes: storage,
    maxPods: c.maxPods,
    nodeInfo: {
      machineID: readText('/etc/machine-id'),
      systemUUID: readText('/sys/class/dmi/id/product_uuid') || readText('/etc/machine-id'),
      bootID: readText('/proc/sys/kernel/random/boot_id'),
      kernelVersion: release(),
      osImage: pretty,
      kubeletVersion: KUBELET_VERSION,
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: goArch(process.arch),
    },
  };
}

export const defaultHostname = (): string => osHostname().toLowerCase();

/** The object, or undefined when the apiserver says NotFound. */
async function orUndefined<T>(get: () => Promise<T>): Promise<T | undefined> {
  try {
    return await get();
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** A traced sync's call paths (Kubelet.syncScope); absent: the kubelet's own, untraced. */
interface SyncScope {
  runtime: RuntimeManager;
  objects: ObjectSource;
}

/** Runs fn with no active trace context: long-lived loops it starts never inherit a pod's span. */
function untraced<T>(fn: () => T): T {
  return otelContext.with(ROOT_CONTEXT, fn);
}
