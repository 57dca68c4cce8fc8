// The scheduler (pkg/scheduler/scheduler.go + schedule_one.go): informers feed
// the cache and the queue; one loop pops a pod, runs the algorithm against
// the cache synchronously, assumes the pod on the chosen node and binds it
// asynchronously through pods/binding, recording Scheduled or
// FailedScheduling events as upstream does.

import { formatTime, isPodTerminal, type Node, type PersistentVolume, type PersistentVolumeClaim, type Pod, type PodCondition, type PodDisruptionBudget, type StorageClass } from '@kubelab/api';
import type { Clientset, EventRecorder, SharedIndexInformer } from '@kubelab/client';
import type { Logger } from '@kubelab/component-base';
import { contextFromObject } from '@kubelab/tracing';
import type { SchedulingDecisionRecord } from '@kubelab/proto/sched-record';
import { newAlgorithmState, NoNodesAvailableError, schedulePod, type AlgorithmState, type CycleDetail } from './algorithm/schedule-pod.js';
import { buildDecisionRecord } from './decision/record.js';
import { SchedulerCache } from './cache/cache.js';
import { CycleState } from './framework/cycle-state.js';
import { ActionType, event, Events, matchClusterEvent, nodeUpdateActions, nodeUpdateEvent, type ClusterEvent } from './framework/events.js';
import type { FitError } from './framework/fit-error.js';
import type { ClusterActions, VolumeListers } from './framework/handle.js';
import type { QueuedPodInfo } from './framework/interface.js';
import { podKey } from './framework/node-info.js';
import { DEFAULT_SCHEDULER_NAME, defaultProfile, type Profile } from './framework/profile.js';
import type { Registry } from './framework/registry.js';
import { Framework } from './framework/runtime.js';
import type { SchedulerMetrics } from './metrics.js';
import { newInTreeRegistry } from './plugins/registry.js';
import { Nominator } from './queue/nominator.js';
import { SchedulingQueue } from './queue/scheduling-queue.js';

export interface SchedulerDeps {
  clientset: Clientset;
  /** One recorder per profile name (events come "From" the profile's schedulerName). */
  recorderFor: (schedulerName: string) => EventRecorder;
  logger: Logger;
  metrics?: SchedulerMetrics;
  profiles?: Profile[];
  registry?: Registry;
  now?: () => number;
  random?: () => number;
  podInitialBackoffMs?: number;
  podMaxBackoffMs?: number;
  podMaxInUnschedulableMs?: number;
  /** Bindings in flight at once before the loop waits (upstream: unbounded goroutines). */
  maxInFlightBindings?: number;
  /** The storage listers VolumeBinding reads (absent: pods with claims get an Error status). */
  volumes?: VolumeListers;
  /** The budgets preemption respects (a PodDisruptionBudget lister). */
  podDisruptionBudgets?: () => readonly PodDisruptionBudget[];
  /** Receives one decision record per scheduling cycle (kubelab.sched.<namespace>.<pod> on NATS); absent: none is built. */
  decisions?: (rec: SchedulingDecisionRecord) => void;
  /** Whether records are wanted now (NATS connected); absent: whenever `decisions` is set. */
  decisionsActive?: () => boolean;
  /**
   * How many records a second carry the per-node detail (a burst of as many
   * may go at once); beyond that a record says only where the pod went or why
   * not (`detailOmitted`), so a burst of pods is not slowed by its records.
   * Default 20.
   */
  decisionDetailPerSecond?: number;
}

/** What a cycle's decision record is built from, besides its outcome. */
interface DecisionCycle {
  fwk: Framework;
  state: CycleState;
  qp: QueuedPodInfo;
  allNodes: ReturnType<SchedulerCache['list']>;
  /** Absent: a summary record (over the detail rate). */
  detail: CycleDetail | undefined;
  cycle: number;
  startMs: number;
  startPerf: number;
}

const ACTION_ADD_OR_UPDATE_ASSIGNED = event('AssignedPod', ActionType.Add, 'AssignedPodAdd');

function isAssigned(pod: Pod): boolean {
  return !!pod.spec?.nodeName;
}

export function schedulerNameOf(pod: Pod): string {
  return pod.spec?.schedulerName || DEFAULT_SCHEDULER_NAME;
}

/** The pod's PodScheduled condition after a failed attempt, or undefined when it is already so. */
export function unschedulableCondition(pod: Pod, reason: string, message: string, now: string): PodCondition[] | undefined {
  const conds = pod.status?.conditions ?? [];
  const old = conds.find((c) => c.type === 'PodScheduled');
  if (old && old.status === 'False' && old.reason === reason && old.message === message) return undefined;
  const next: PodCondition = {
    type: 'PodScheduled',
    status: 'False',
    lastProbeTime: null,
    lastTransitionTime: old && old.status === 'False' ? (old.lastTransitionTime ?? now) : now,
    reason,
    message,
  };
  return [...conds.filter((c) => c.type !== 'PodScheduled'), next];
}

/** status.nominatedNodeName to write after a failed attempt (upstream updatePod): a string, null to clear it, undefined when unchanged. */
export function nominatedNodeNameChange(pod: Pod, override: string | undefined): string | null | undefined {
  if (override === undefined || (pod.status?.nominatedNodeName ?? '') === override) return undefined;
  return override || null;
}

/** A token bucket: `rate` a second, at most `burst` saved up. */
export class TokenBucket {
  private tokens: number;
  constructor(
    private readonly rate: number,
    private readonly burst: number,
    private last: number,
  ) {
    this.tokens = burst;
  }

  take(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.rate) / 1000);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }
}

/** Event notes are capped at 1024 bytes upstream (truncateMessage, NoteLengthLimit), ending " ...". */
export function truncateMessage(message: string): string {
  const max = 1024;
  const bytes = Buffer.from(message, 'utf8');
  if (bytes.length <= max) return message;
  const suffix = ' ...';
  // Cut on a character boundary: a partial UTF-8 sequence would not decode back.
  let end = max - suffix.length;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8') + suffix;
}

export class Scheduler {
  readonly cache: SchedulerCache;
  readonly queue: SchedulingQueue;
  readonly frameworks = new Map<string, Framework>();
  private readonly algo: AlgorithmState;
  private readonly now: () => number;
  private readonly log: Logger;
  private readonly maxInFlight: number;
  private inFlightBindings = 0;
  private bindingSlotWaiters: (() => void)[] = [];
  private readonly bindings = new Set<Promise<void>>();
  private podInformer: SharedIndexInformer<Pod> | undefined;
  /** Events some plugin registered, to skip queue scans for events nobody waits for. */
  private readonly registeredEvents: ClusterEvent[] = [];
  /** The decision records that may carry node detail now. */
  private readonly detailBudget: TokenBucket;

  constructor(private readonly deps: SchedulerDeps) {
    this.now = deps.now ?? Date.now;
    this.log = deps.logger;
    this.maxInFlight = deps.maxInFlightBindings ?? 512;
    const perSecond = deps.decisionDetailPerSecond ?? 20;
    this.detailBudget = new TokenBucket(perSecond, perSecond, this.now());
    this.cache = new SchedulerCache({ now: this.now });
    this.algo = newAlgorithmState(deps.random);
    const actions = this.clusterActions();
    const registry = deps.registry ?? newInTreeRegistry();
    const nominator = new Nominator();
    for (const profile of deps.profiles ?? [defaultProfile()]) {
      if (this.frameworks.has(profile.schedulerName)) throw new Error(`duplicate profile with scheduler name "${profile.schedulerName}"`);
      this.frameworks.set(profile.schedulerName, new Framework(registry, profile, this.cache, actions, deps.volumes, nominator));
    }
    const first = [...this.frameworks.values()][0]!;
    const eventsByPlugin = new Map<string, ReturnType<Framework['eventsToRegister']> extends Map<string, infer V> ? V : never>();
    for (const f of this.frameworks.values()) {
      for (const [name, evs] of f.eventsToRegister()) {
        eventsByPlugin.set(name, [...(eventsByPlugin.get(name) ?? []), ...evs]);
        this.registeredEvents.push(...evs.map((e) => e.event));
      }
    }
    this.queue = new SchedulingQueue({
      now: this.now,
      less: (a, b) => first.queueSort.less(a, b),
      preEnqueue: (pod) => this.frameworks.get(schedulerNameOf(pod))?.runPreEnqueuePlugins(pod),
      eventsByPlugin,
      nominator,
      ...(deps.podInitialBackoffMs !== undefined ? { podInitialBackoffMs: deps.podInitialBackoffMs } : {}),
      ...(deps.podMaxBackoffMs !== undefined ? { podMaxBackoffMs: deps.podMaxBackoffMs } : {}),
      ...(deps.podMaxInUnschedulableMs !== undefined ? { podMaxInUnschedulableMs: deps.podMaxInUnschedulableMs } : {}),
    });
    if (deps.metrics) {
      // Read the queue when /metrics is scraped rather than on every queue change.
      deps.metrics.setPendingSource(() => this.queue.pendingCounts());
    }
  }

  /** The API side effects plugins may cause, through the clientset. */
  private clusterActions(): ClusterActions {
    const cs = this.deps.clientset;
    return {
      bind: async (pod, nodeName) => {
        // The binding continues the pod's trace (kubelab.io/traceparent, recorded by the apiserver at create).
        await cs.core.pods(pod.metadata.namespace).bind(
          {
            apiVersion: 'v1',
            kind: 'Binding',
            metadata: { name: pod.metadata.name!, namespace: pod.metadata.namespace!, ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}) },
            target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
          },
          { traceContext: contextFromObject(pod) },
        );
      },
      deletePod: async (pod, preemptor) => {
        if (preemptor) {
          // The victim's DisruptionTarget condition (PreemptionByScheduler), as upstream's prepareCandidate applies it before the delete.
          const condition = {
            type: 'DisruptionTarget',
            status: 'True',
            lastTransitionTime: formatTime(this.now()),
            reason: 'PreemptionByScheduler',
            message: `${schedulerNameOf(preemptor)}: preempting to accommodate a higher priority pod`,
          };
          await cs.core.pods(pod.metadata.namespace).patch(pod.metadata.name!, 'strategic', { status: { conditions: [condition] } }, { subresource: 'status' });
        }
        await cs.core.pods(pod.metadata.namespace).delete(pod.metadata.name!, pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {});
      },
      setNominatedNodeName: async (pod, nodeName) => {
        await cs.core.pods(pod.metadata.namespace).patch(pod.metadata.name!, 'merge', { status: { nominatedNodeName: nodeName } }, { subresource: 'status' });
      },
      ...(this.deps.podDisruptionBudgets ? { podDisruptionBudgets: this.deps.podDisruptionBudgets } : {}),
      event: (regarding, type, reason, _action, message) => this.deps.recorderFor(schedulerNameOf(regarding)).event(regarding, type, reason, message),
      updateClaim: async (claim) => {
        await cs.core.persistentVolumeClaims(claim.metadata.namespace).update(claim);
      },
      updateVolume: async (volume) => {
        await cs.core.persistentVolumes().update(volume);
      },
    };
  }

  private responsibleFor(pod: Pod): boolean {
    return this.frameworks.has(schedulerNameOf(pod));
  }

  private someoneWaitsFor(ev: ClusterEvent): boolean {
    for (const r of this.registeredEvents) if (matchClusterEvent(r, ev)) return true;
    return false;
  }

  private moveAll(ev: ClusterEvent, oldObj?: unknown, newObj?: unknown): void {
    if (!this.someoneWaitsFor(ev)) return;
    this.queue.moveAllToActiveOrBackoffQueue(ev, oldObj, newObj);
  }

  // ---- informer event handlers (eventhandlers.go)

  /** Wires pod and node informers to the cache and the queue. */
  addAllEventHandlers(pods: SharedIndexInformer<Pod>, nodes: SharedIndexInformer<Node>): void {
    this.podInformer = pods;
    nodes.addEventHandler({
      onAdd: (n) => {
        this.cache.addNode(n);
        this.moveAll(Events.NodeAdd, undefined, n);
      },
      onUpdate: (o, n) => {
        this.cache.updateNode(o, n);
        const ev = nodeUpdateEvent(nodeUpdateActions(o, n));
        if (ev) this.moveAll(ev, o, n);
      },
      onDelete: (obj) => {
        const n = ('obj' in obj ? obj.obj : obj) as Node | undefined;
        if (n?.metadata) this.cache.removeNode(n);
      },
    });
    pods.addEventHandler({
      onAdd: (p) => this.onPodAdd(p),
      onUpdate: (o, n) => this.onPodUpdate(o, n),
      onDelete: (obj) => {
        const p = ('obj' in obj ? obj.obj : obj) as Pod | undefined;
        if (p?.metadata) this.onPodDelete(p);
      },
    });
  }

  /** Storage changes may make pods with claims schedulable (VolumeBinding's events). */
  addVolumeEventHandlers(claims: SharedIndexInformer<PersistentVolumeClaim>, volumes: SharedIndexInformer<PersistentVolume>, classes: SharedIndexInformer<StorageClass>): void {
    claims.addEventHandler({ onAdd: (c) => this.moveAll(Events.PvcAdd, undefined, c), onUpdate: (o, c) => this.moveAll(Events.PvcUpdate, o, c) });
    volumes.addEventHandler({ onAdd: (v) => this.moveAll(Events.PvAdd, undefined, v), onUpdate: (o, v) => this.moveAll(Events.PvUpdate, o, v) });
    classes.addEventHandler({ onAdd: (c) => this.moveAll(Events.StorageClassAdd, undefined, c) });
  }

  private onPodAdd(p: Pod): void {
    if (isAssigned(p)) {
      if (isPodTerminal(p)) return;
      this.cache.addPod(p);
      this.queue.delete(p);
      this.moveAll(ACTION_ADD_OR_UPDATE_ASSIGNED, undefined, p);
    } else if (this.responsibleFor(p)) this.queue.add(p);
  }

  private onPodUpdate(o: Pod, n: Pod): void {
    const wasAssigned = isAssigned(o) && !isPodTerminal(o);
    const isNowAssigned = isAssigned(n) && !isPodTerminal(n);
    if (isAssigned(n)) {
      // Left the unscheduled set (bound by us or someone else).
      if (!isAssigned(o)) this.queue.delete(n);
      if (isNowAssigned) {
        if (wasAssigned) this.cache.updatePod(o, n);
        else this.cache.addPod(n);
      } else if (wasAssigned) {
        // Terminal pods free their node's resources.
        this.cache.removePod(n);
        this.moveAll(Events.AssignedPodDelete, o, undefined);
      }
      return;
    }
    if (this.responsibleFor(n)) this.queue.update(o, n);
    else if (this.responsibleFor(o)) this.queue.delete(o);
  }

  private onPodDelete(p: Pod): void {
    if (isAssigned(p)) {
      this.cache.removePod(p);
      this.moveAll(Events.AssignedPodDelete, p, undefined);
    } else this.queue.delete(p);
  }

  // ---- the loop

  /** Schedules until signal aborts, then waits for in-flight bindings. */
  async run(signal: AbortSignal): Promise<void> {
    const flush = setInterval(() => this.queue.flushBackoffQCompleted(), 1000);
    const leftover = setInterval(() => this.queue.flushUnschedulablePodsLeftover(), 30_000);
    const onAbort = () => this.queue.close();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      while (!signal.aborted) {
        if (!(await this.scheduleOne())) break;
        // Let informer events and binding replies in between cycles.
        await new Promise<void>((r) => setImmediate(r));
      }
    } finally {
      clearInterval(flush);
      clearInterval(leftover);
      signal.removeEventListener('abort', onAbort);
      await Promise.allSettled([...this.bindings]);
    }
  }

  /** One pod through the scheduling cycle; false when the queue is closed. */
  async scheduleOne(): Promise<boolean> {
    const qp = await this.queue.pop();
    if (!qp) return false;
    const pod = qp.pod;
    const fwk = this.frameworks.get(schedulerNameOf(pod));
    if (!fwk) {
      this.log.error('unable to find profile for pod', { pod: qp.key, schedulerName: schedulerNameOf(pod) });
      this.queue.done(qp.key);
      return true;
    }
    if (pod.metadata.deletionTimestamp) {
      this.deps.recorderFor(fwk.profileName).event(pod, 'Warning', 'FailedScheduling', `skip schedule deleting pod: ${pod.metadata.namespace}/${pod.metadata.name}`);
      this.queue.done(qp.key);
      return true;
    }
    if (this.cache.isAssumedPod(pod)) {
      this.queue.done(qp.key);
      return true;
    }
    const start = this.now();
    const cycle = this.queue.currentSchedulingCycle;
    const state = new CycleState();
    const allNodes = this.cache.list();
    // The decision record's material is kept only when someone receives records.
    const dc: DecisionCycle | undefined =
      this.deps.decisions && (this.deps.decisionsActive?.() ?? true)
        ? { fwk, state, qp, allNodes, detail: this.detailBudget.take(start) ? {} : undefined, cycle, startMs: start, startPerf: performance.now() }
        : undefined;
    const out = schedulePod(fwk, this.algo, state, pod, allNodes, dc?.detail);
    if (!out.ok) {
      if ('fitError' in out) await this.handleFitError(fwk, state, qp, out.fitError, cycle, start, dc);
      else if (out.error instanceof NoNodesAvailableError) {
        // Rejected, not an error: PodScheduled reason Unschedulable, no plugin to wait for (so backoffQ).
        qp.unschedulablePlugins = new Set();
        qp.pendingPlugins = new Set();
        if (dc) this.publishDecision(dc, { result: 'Unschedulable', message: out.error.message });
        this.handleSchedulingFailure(fwk, qp, 'Unschedulable', out.error.message, cycle, start, 'unschedulable');
      } else {
        if (dc) this.publishDecision(dc, { result: 'SchedulerError', message: out.error.message });
        this.handleSchedulingFailure(fwk, qp, 'SchedulerError', out.error.message, cycle, start, 'error');
      }
      return true;
    }
    const host = out.result.suggestedHost;
    const assumed: Pod = { ...pod, spec: { ...pod.spec!, nodeName: host } };
    try {
      this.cache.assumePod(assumed);
    } catch (err) {
      this.handleSchedulingFailure(fwk, qp, 'SchedulerError', (err as Error).message, cycle, start, 'error');
      return true;
    }
    // The pod holds its node now: its nomination no longer reserves space (upstream assume).
    this.queue.nominator.deleteNominatedPodIfExists(pod);
    const rs = fwk.runReservePlugins(state, assumed, host);
    if (rs && !rs.isSuccess()) {
      fwk.runUnreservePlugins(state, assumed, host);
      this.cache.forgetPod(assumed);
      if (dc) this.publishDecision(dc, { result: 'SchedulerError', message: rs.message() });
      this.handleSchedulingFailure(fwk, qp, 'SchedulerError', rs.message(), cycle, start, 'error');
      return true;
    }
    if (dc) this.publishDecision(dc, { result: 'Scheduled', node: host, feasibleNodes: out.result.feasibleNodes });
    await this.acquireBindingSlot();
    const b = this.bindingCycle(fwk, state, qp, assumed, host, cycle, start).finally(() => {
      this.bindings.delete(b);
      this.releaseBindingSlot();
    });
    this.bindings.add(b);
    return true;
  }

  private async acquireBindingSlot(): Promise<void> {
    while (this.inFlightBindings >= this.maxInFlight) await new Promise<void>((r) => this.bindingSlotWaiters.push(r));
    this.inFlightBindings++;
  }

  private releaseBindingSlot(): void {
    this.inFlightBindings--;
    this.bindingSlotWaiters.shift()?.();
  }

  private async bindingCycle(fwk: Framework, state: CycleState, qp: QueuedPodInfo, assumed: Pod, host: string, cycle: number, start: number): Promise<void> {
    const pre = await fwk.runPreBindPlugins(state, assumed, host);
    const s = pre ?? (await fwk.runBindPlugins(state, assumed, host));
    if (s && !s.isSuccess()) {
      fwk.runUnreservePlugins(state, assumed, host);
      try {
        this.cache.forgetPod(assumed);
      } catch (err) {
        this.log.error('scheduler cache ForgetPod failed', { pod: qp.key, err });
      }
      // The assumed pod's resources are free again: pods waiting for them may fit.
      this.moveAll(Events.AssignedPodDelete, assumed, undefined);
      const point = pre ? 'PreBind' : 'Bind';
      this.handleSchedulingFailure(fwk, qp, 'SchedulerError', `running ${point} plugin "${s.plugin || 'DefaultBinder'}": ${s.message()}`, cycle, start, 'error');
      return;
    }
    this.cache.finishBinding(assumed);
    const m = this.deps.metrics;
    if (m) {
      const secs = (this.now() - start) / 1000;
      m.scheduleAttempts.inc({ result: 'scheduled', profile: fwk.profileName });
      m.attemptDuration.observe({ result: 'scheduled', profile: fwk.profileName }, secs);
      if (qp.initialAttemptTimestamp !== undefined) {
        const e2e = (this.now() - qp.initialAttemptTimestamp) / 1000;
        m.podSchedulingDuration.observe({ attempts: String(Math.min(qp.attempts, 15)) }, e2e);
        m.podSchedulingSLIDuration.observe({ attempts: String(Math.min(qp.attempts, 15)) }, e2e);
      }
    }
    this.deps.recorderFor(fwk.profileName).event(assumed, 'Normal', 'Scheduled', `Successfully assigned ${assumed.metadata.namespace}/${assumed.metadata.name} to ${host}`);
    this.queue.done(qp.key);
  }

  /** Builds and hands on the cycle's decision record; a failure here never fails the cycle. */
  private publishDecision(dc: DecisionCycle, outcome: Pick<SchedulingDecisionRecord, 'result' | 'node' | 'message' | 'postFilter'> & { feasibleNodes?: number }): void {
    try {
      const rec = buildDecisionRecord({
        fwk: dc.fwk,
        state: dc.state,
        pod: dc.qp.pod,
        allNodes: dc.allNodes,
        detail: dc.detail,
        cycle: dc.cycle,
        attempts: dc.qp.attempts,
        startMs: dc.startMs,
        durationMs: performance.now() - dc.startPerf,
        ...outcome,
      });
      this.deps.decisions!(rec);
    } catch (err) {
      this.log.debug('decision record not published', { pod: dc.qp.key, err });
    }
  }

  private async handleFitError(fwk: Framework, state: CycleState, qp: QueuedPodInfo, fitError: FitError, cycle: number, start: number, dc?: DecisionCycle): Promise<void> {
    const d = fitError.diagnosis;
    qp.unschedulablePlugins = new Set(d.unschedulablePlugins);
    qp.pendingPlugins = new Set(d.pendingPlugins);
    let nominated: string | undefined;
    let postFilterRan = false;
    if (fwk.postFilter.length > 0) {
      postFilterRan = true;
      this.deps.metrics?.preemptionAttempts.inc();
      try {
        const post = await fwk.runPostFilterPlugins(state, qp.pod, d.nodeToStatus);
        if (!post.status.isSuccess()) d.postFilterMsg = post.status.message();
        // ModeOverride: preemption nominated a node (or, with '', none) — counted in Filter from now on.
        nominated = post.result?.nominatedNodeName;
        if (nominated !== undefined) {
          if (nominated) this.queue.nominator.addNominatedPod(qp.pod, nominated);
          else this.queue.nominator.deleteNominatedPodIfExists(qp.pod);
        }
      } catch (err) {
        this.log.error('PostFilter failed', { pod: qp.key, err });
      }
    }
    if (dc) {
      const postFilter = postFilterRan ? { ...(d.postFilterMsg ? { message: d.postFilterMsg } : {}), ...(nominated !== undefined ? { nominatedNodeName: nominated } : {}) } : undefined;
      this.publishDecision(dc, { result: 'Unschedulable', message: fitError.error(), ...(postFilter ? { postFilter } : {}) });
    }
    this.handleSchedulingFailure(fwk, qp, 'Unschedulable', fitError.error(), cycle, start, 'unschedulable', nominated);
  }

  /** handleSchedulingFailure: requeue (unless the pod is gone or bound), event, PodScheduled=False. */
  private handleSchedulingFailure(
    fwk: Framework,
    qp: QueuedPodInfo,
    reason: 'Unschedulable' | 'SchedulerError',
    message: string,
    cycle: number,
    start: number,
    result: 'unschedulable' | 'error',
    /** The preemption's ModeOverride nomination ('' clears status.nominatedNodeName); undefined leaves it. */
    nominatedNodeName?: string,
  ): void {
    const m = this.deps.metrics;
    if (m) {
      m.scheduleAttempts.inc({ result, profile: fwk.profileName });
      m.attemptDuration.observe({ result, profile: fwk.profileName }, (this.now() - start) / 1000);
    }
    if (result === 'error') {
      qp.unschedulablePlugins = new Set();
      qp.pendingPlugins = new Set();
    }
    const pod = qp.pod;
    const current = this.podInformer?.getIndexer().getByKey(podKey(pod)) as Pod | undefined;
    if (this.podInformer && !current) {
      this.log.info('Pod does not exist in informer cache, not requeueing', { pod: qp.key });
      this.queue.done(qp.key);
    } else if (current?.spec?.nodeName) {
      this.log.info('Pod has been assigned to node, not requeueing', { pod: qp.key, node: current.spec.nodeName });
      this.queue.done(qp.key);
    } else {
      if (current) qp.pod = current;
      this.queue.addUnschedulableIfNotPresent(qp, cycle);
    }
    this.log.info('Unable to schedule pod; no fit; waiting', { pod: qp.key, err: message });
    this.deps.recorderFor(fwk.profileName).event(pod, 'Warning', 'FailedScheduling', truncateMessage(message));
    const latest = current ?? pod;
    const conditions = unschedulableCondition(latest, reason, message, formatTime(this.now()));
    const nnn = nominatedNodeNameChange(latest, nominatedNodeName);
    if ((conditions || nnn !== undefined) && current) {
      this.deps.clientset.core
        .pods(pod.metadata.namespace)
        .patch(pod.metadata.name!, 'merge', { status: { ...(conditions ? { conditions } : {}), ...(nnn !== undefined ? { nominatedNodeName: nnn } : {}) } }, { subresource: 'status' })
        .catch((err: unknown) => this.log.error('Error updating pod', { pod: qp.key, err }));
    }
  }
}
