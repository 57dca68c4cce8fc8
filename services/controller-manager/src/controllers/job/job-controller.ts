// The Job controller (pkg/controller/job): runs a job's pods up to
// parallelism until enough succeed, counts finished pods through the
// batch.kubernetes.io/job-tracking finalizer (a pod's UID goes into
// status.uncountedTerminatedPods, then its finalizer is removed, then it is
// counted), backs off after failures, and ends the job with
// SuccessCriteriaMet/FailureTarget first and Complete/Failed once no pod
// runs, as 1.32 does.

import { controllerRef, formatTime, hasJobCondition, isJobFinished, JOB_TRACKING_FINALIZER, labelSelectorAsSelector, newControllerRef, type Job, type JobStatus, type Pod } from '@kubelab/api';
import { isTombstone, metaNamespaceKey, splitMetaNamespaceKey, type Lister, type SharedIndexInformer } from '@kubelab/client';
import { ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { ControllerExpectations } from '../../util/expectations.js';
import { CONTROLLER_UID_INDEX, controllerIndexers } from '../../util/indexers.js';
import { PodControl, podFromTemplate, slowStartBatch } from '../../util/pod-control.js';
import { claimObjects } from '../../util/ref-manager.js';
import {
  completionIndex,
  countPods,
  extraIndexedPods,
  failuresSinceSuccess,
  formatIndexes,
  hasTrackingFinalizer,
  indexesToCreate,
  matchPodFailurePolicy,
  newCondition,
  parseIndexes,
  podTemplateFor,
  remainingBackoff,
  statusChanged,
  untilActiveDeadline,
  verdict,
  wantActive,
  withCondition,
} from './decisions.js';

/** Keys of orphaned pods whose finalizer the controller removes (upstream: the orphan queue). */
const ORPHAN_PREFIX = 'orphan-pod/';

/**
 * Removes the tracking finalizer. Upstream sends a strategic merge patch
 * with `$deleteFromPrimitiveList`; a merge patch of the remaining list
 * guarded by the resourceVersion (a stale view conflicts and is retried)
 * does the same and is what the fake clientset applies too.
 */
const removeFinalizerPatch = (p: Pod) => ({
  metadata: { finalizers: (p.metadata.finalizers ?? []).filter((f) => f !== JOB_TRACKING_FINALIZER), resourceVersion: p.metadata.resourceVersion },
});

export class JobController extends QueueController {
  private readonly jobLister: Lister<Job>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly podControl: PodControl;
  readonly expectations: ControllerExpectations;
  /** Pod UIDs whose finalizer removal was sent but not yet seen (upstream finalizerExpectations), per job key. */
  private readonly removing = new Map<string, Set<string>>();

  constructor(private readonly ctx: ControllerContext) {
    super('job', ctx.logger, queueOptions(ctx));
    this.expectations = new ControllerExpectations(ctx.clock);
    this.podControl = new PodControl(ctx.clientset, ctx.recorder('job-controller'));
    const jobs = ctx.informers.batch.jobs();
    this.pods = ctx.informers.core.pods({ indexers: controllerIndexers });
    this.jobLister = jobs.lister();
    jobs.addEventHandler({
      onAdd: (j) => this.enqueue(metaNamespaceKey(j)),
      onUpdate: (_o, j) => this.enqueue(metaNamespaceKey(j)),
      onDelete: (o) => {
        const j = isTombstone(o) ? o.obj : o;
        this.expectations.delete(metaNamespaceKey(j));
        this.removing.delete(metaNamespaceKey(j));
      },
    });
    this.pods.addEventHandler({
      onAdd: (p) => this.podChanged(p, 'add'),
      onUpdate: (o, p) => {
        if (o.metadata.resourceVersion !== p.metadata.resourceVersion) this.podChanged(p, 'update');
      },
      onDelete: (o) => this.podChanged(isTombstone(o) ? o.obj : o, 'delete'),
    });
  }

  private ownerOf(p: Pod): Job | undefined {
    const ref = controllerRef(p);
    if (ref?.kind !== 'Job') return undefined;
    const j = this.jobLister.namespace(p.metadata.namespace ?? '').get(ref.name);
    return j?.metadata.uid === ref.uid ? j : undefined;
  }

  /** Jobs whose selector matches an orphan pod (upstream getPodJobs): they may adopt it. */
  private matchingJobs(p: Pod): Job[] {
    return this.jobLister
      .namespace(p.metadata.namespace ?? '')
      .list()
      .filter((j) => {
        try {
          const sel = labelSelectorAsSelector(j.spec?.selector);
          return !sel.empty() && sel.matches(p.metadata.labels ?? {});
        } catch {
          return false;
        }
      });
  }

  private podChanged(p: Pod, how: 'add' | 'update' | 'delete'): void {
    if (!controllerRef(p)) {
      if (how !== 'delete' && !p.metadata.deletionTimestamp) for (const j of this.matchingJobs(p)) this.enqueue(metaNamespaceKey(j));
      return;
    }
    const job = this.ownerOf(p);
    if (!job) {
      // Its job is gone: nobody will count it, so the finalizer must not keep it.
      if (how !== 'delete' && hasTrackingFinalizer(p) && controllerRef(p)?.kind === 'Job') this.enqueue(ORPHAN_PREFIX + metaNamespaceKey(p));
      return;
    }
    const key = metaNamespaceKey(job);
    if (how === 'add') this.expectations.creationObserved(key);
    if (how === 'delete' || !hasTrackingFinalizer(p)) this.removing.get(key)?.delete(p.metadata.uid ?? '');
    this.enqueue(key);
  }

  async sync(key: string): Promise<void> {
    if (key.startsWith(ORPHAN_PREFIX)) return this.syncOrphanPod(key.slice(ORPHAN_PREFIX.length));
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = this.jobLister.namespace(namespace).get(name);
    if (!cached) {
      this.expectations.delete(key);
      this.removing.delete(key);
      return;
    }
    // Another controller owns it (spec.managedBy, 1.32 beta).
    if (cached.spec?.managedBy && cached.spec.managedBy !== 'kubernetes.io/job-controller') return;
    const job = structuredClone(cached);
    const now = this.clock.now();
    // Read before the pods are listed (upstream satisfiedExpectations): a pod this job created that the
    // informer delivers during the awaits below would satisfy them while the listing still lacks it.
    const satisfied = this.expectations.satisfied(key);
    const pods = await this.podsForJob(job);
    const status: JobStatus = structuredClone(job.status ?? {});
    const indexed = job.spec?.completionMode === 'Indexed';
    const completions = job.spec?.completions ?? 0;
    const removing = this.removing.get(key) ?? new Set<string>();
    this.removing.set(key, removing);

    // 1. Newly finished pods: their UIDs are recorded before their finalizers go, so none is lost or counted twice.
    const counts = countPods(job, pods, removing);
    const uncounted = { succeeded: [...(status.uncountedTerminatedPods?.succeeded ?? [])], failed: [...(status.uncountedTerminatedPods?.failed ?? [])] };
    // podFailurePolicy: Ignore leaves a failure uncounted; the first FailJob match fails the job.
    let podFailurePolicyMessage: string | undefined;
    const ignored: Pod[] = [];
    const countedFailures = counts.newlyFailed.filter((p) => {
      const m = matchPodFailurePolicy(job, p);
      if (m?.action === 'Ignore') ignored.push(p);
      else if (m?.action === 'FailJob' && podFailurePolicyMessage === undefined) podFailurePolicyMessage = m.message;
      return m?.action !== 'Ignore';
    });
    if (counts.newlySucceeded.length || countedFailures.length) {
      uncounted.succeeded.push(...counts.newlySucceeded.map((p) => p.metadata.uid ?? ''));
      uncounted.failed.push(...countedFailures.map((p) => p.metadata.uid ?? ''));
      status.uncountedTerminatedPods = uncounted;
      job.status = await this.writeStatus(job, status);
    }
    // 2. Remove the finalizers of the recorded pods; 3. count those done (or gone).
    const byUid = new Map(pods.map((p) => [p.metadata.uid ?? '', p]));
    const done = await this.removeFinalizers(
      key,
      [...[...uncounted.succeeded, ...uncounted.failed].map((u) => byUid.get(u)), ...ignored].filter((p): p is Pod => !!p && hasTrackingFinalizer(p)),
    );
    const counted = (uid: string) => done.has(uid) || !byUid.get(uid) || !hasTrackingFinalizer(byUid.get(uid)!);
    const completed = parseIndexes(status.completedIndexes, completions);
    let succeeded = status.succeeded ?? 0;
    let failed = status.failed ?? 0;
    for (const uid of uncounted.succeeded.filter(counted)) {
      succeeded++;
      const i = byUid.get(uid) ? completionIndex(byUid.get(uid)!) : undefined;
      if (indexed && i !== undefined && i < completions) completed.add(i);
    }
    failed += uncounted.failed.filter(counted).length;
    // Indexed: succeeded is the number of completed indexes (upstream succeededIndexes.total()), so a second pod of an index adds nothing.
    if (indexed) succeeded = completed.size;
    status.uncountedTerminatedPods = { succeeded: uncounted.succeeded.filter((u) => !counted(u)), failed: uncounted.failed.filter((u) => !counted(u)) };

    // 4. The outcome, the pods to run, the conditions.
    let active = counts.active;
    let terminating = counts.terminating;
    const finished = isJobFinished(job);
    if (!finished && !status.startTime && !job.spec?.suspend) status.startTime = formatTime(now);
    const outcome = finished
      ? undefined
      : verdict({ job: { ...job, status }, ...(podFailurePolicyMessage !== undefined ? { podFailurePolicyMessage } : {}), succeeded, failed, active: active.length, completedIndexes: completed, now });
    let created = 0;
    // Told only once the status saying so is stored: a sync on a stale cache conflicts instead of repeating it.
    const statusEvents: ['Normal' | 'Warning', string, string][] = [];
    if (!finished && outcome) {
      const interim = outcome.type === 'Failed' ? 'FailureTarget' : 'SuccessCriteriaMet';
      status.conditions = withCondition(status.conditions, newCondition(interim, outcome.reason, outcome.message, now));
      terminating += await this.deletePods(key, job, active);
      active = [];
      const uncountedLeft = (status.uncountedTerminatedPods.succeeded?.length ?? 0) + (status.uncountedTerminatedPods.failed?.length ?? 0);
      if (terminating === 0 && uncountedLeft === 0) {
        status.conditions = withCondition(status.conditions, newCondition(outcome.type, outcome.reason, outcome.message, now));
        if (outcome.type === 'Complete') {
          status.completionTime = formatTime(now);
          // upstream recordJobFinished: more pods succeeded than completions asked for (say, pods adopted or created on a stale cache).
          if (job.spec?.completions != null && succeeded > job.spec.completions) {
            statusEvents.push(['Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached']);
          }
          statusEvents.push(['Normal', 'Completed', 'Job completed']);
        } else statusEvents.push(['Warning', outcome.reason, outcome.message]);
      }
    } else if (!finished && job.spec?.suspend) {
      terminating += await this.deletePods(key, job, active);
      active = [];
      if (!hasJobCondition(job, 'Suspended')) {
        status.conditions = withCondition(status.conditions, newCondition('Suspended', 'JobSuspended', 'Job suspended', now));
        statusEvents.push(['Normal', 'Suspended', 'Job suspended']);
      }
    } else if (!finished) {
      if (hasJobCondition(job, 'Suspended')) {
        // Resumed: the deadline counts from now (upstream resets startTime).
        status.conditions = withCondition(status.conditions, newCondition('Suspended', 'JobResumed', 'Job resumed', now, 'False'));
        status.startTime = formatTime(now);
        statusEvents.push(['Normal', 'Resumed', 'Job resumed']);
      }
      if (satisfied) {
        const r = await this.manage(key, job, pods, active, succeeded, completed, now);
        created = r.created;
        terminating += r.deleted;
        active = active.filter((p) => !r.deletedPods.has(p));
      }
      const deadline = untilActiveDeadline({ ...job, status }, now);
      if (deadline !== undefined) this.queue.addAfter(key, deadline);
    }

    status.active = active.length + created;
    status.ready = counts.ready;
    status.terminating = terminating;
    status.succeeded = succeeded;
    status.failed = failed;
    if (indexed) status.completedIndexes = formatIndexes(completed);
    await this.writeStatus(job, clean(status));
    for (const e of statusEvents) this.ctx.recorder('job-controller').event(job, ...e);
  }

  /**
   * getPodsForJob: the pods it owns, plus orphans its selector matches, which
   * it adopts with the tracking finalizer (upstream's PodControllerRefManager
   * with JobTrackingFinalizer); owned pods that no longer match are released.
   */
  private async podsForJob(job: Job): Promise<Pod[]> {
    const owned = this.pods.getIndexer().byIndex(CONTROLLER_UID_INDEX, job.metadata.uid ?? '') as Pod[];
    let selector;
    try {
      selector = labelSelectorAsSelector(job.spec?.selector);
    } catch {
      return owned; // validation refuses such a selector; nothing to adopt with it
    }
    if (selector.empty()) return owned;
    const namespace = job.metadata.namespace ?? '';
    const orphans = (this.pods.lister().namespace(namespace).list() as Pod[]).filter((p) => !controllerRef(p) && selector.matches(p.metadata.labels ?? {}));
    if (orphans.length === 0 && owned.every((p) => selector.matches(p.metadata.labels ?? {}))) return owned;
    return claimObjects<Pod>([...owned, ...orphans], {
      owner: job,
      ownerRef: newControllerRef(job, 'batch/v1', 'Job'),
      matches: (p) => selector.matches(p.metadata.labels ?? {}),
      client: (ns) => this.ctx.clientset.core.pods(ns),
      canAdopt: async () => {
        const fresh = await this.ctx.clientset.batch.jobs(namespace).get(job.metadata.name ?? '');
        return fresh.metadata.uid === job.metadata.uid && !fresh.metadata.deletionTimestamp;
      },
      finalizers: [JOB_TRACKING_FINALIZER],
    });
  }

  /** Creates or deletes pods towards the wanted count (after any failure back-off). */
  private async manage(
    key: string,
    job: Job,
    pods: Pod[],
    active: Pod[],
    succeeded: number,
    completed: Set<number>,
    now: number,
  ): Promise<{ created: number; deleted: number; deletedPods: Set<Pod> }> {
    const indexed = job.spec?.completionMode === 'Indexed';
    const extra = indexed ? extraIndexedPods(active, completed, job.spec?.completions ?? 0) : surplus(active, wantActive(job, succeeded));
    const deleted = await this.deletePods(key, job, extra);
    const kept = active.filter((p) => !extra.includes(p));
    const toCreate: (number | undefined)[] = indexed ? indexesToCreate(job, completed, kept) : Array.from({ length: Math.max(0, wantActive(job, succeeded) - kept.length) }, () => undefined);
    if (toCreate.length === 0) return { created: 0, deleted, deletedPods: new Set(extra) };
    const f = failuresSinceSuccess(pods, job);
    const wait = remainingBackoff(f.count, f.last, now);
    if (wait > 0) {
      this.queue.addAfter(key, wait);
      return { created: 0, deleted, deletedPods: new Set(extra) };
    }
    this.expectations.expectCreations(key, toCreate.length);
    const ns = job.metadata.namespace ?? 'default';
    const ref = newControllerRef(job, 'batch/v1', 'Job');
    const queue = [...toCreate];
    const res = await slowStartBatch(toCreate.length, 1, async () => {
      const { template, generateName } = podTemplateFor(job, queue.shift());
      await this.podControl.createPod(podFromTemplate(template, ns, generateName, ref), job);
    });
    if (res.error !== undefined) {
      this.expectations.lowerCreations(key, toCreate.length - res.successes);
      throw res.error;
    }
    return { created: res.successes, deleted, deletedPods: new Set(extra) };
  }

  /** Deletes pods (the controller's events); returns how many deletes were sent. */
  private async deletePods(_key: string, job: Job, pods: Pod[]): Promise<number> {
    const results = await Promise.allSettled(pods.map((p) => this.podControl.deletePod(p.metadata.namespace ?? 'default', p.metadata.name ?? '', job)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    return pods.length;
  }

  /** Removes the tracking finalizer; returns the UIDs whose pods no longer hold it. */
  private async removeFinalizers(key: string, pods: Pod[]): Promise<Set<string>> {
    const removing = this.removing.get(key)!;
    const done = new Set<string>();
    await Promise.all(
      pods.map(async (p) => {
        const uid = p.metadata.uid ?? '';
        removing.add(uid);
        await ignoreNotFound(this.ctx.clientset.core.pods(p.metadata.namespace ?? 'default').patch(p.metadata.name ?? '', 'merge', removeFinalizerPatch(p)));
        done.add(uid);
      }),
    );
    return done;
  }

  private async writeStatus(job: Job, status: JobStatus): Promise<JobStatus> {
    if (!statusChanged(job.status, status)) return job.status ?? {};
    const copy = { ...job, status };
    const updated = await this.ctx.clientset.batch.jobs(job.metadata.namespace ?? 'default').updateStatus(copy);
    job.metadata.resourceVersion = updated.metadata.resourceVersion;
    return updated.status ?? status;
  }

  /** An orphaned pod (its job deleted) loses the finalizer so it can go (upstream handleOrphanPod). */
  private async syncOrphanPod(podKey: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(podKey);
    const p = this.pods.getIndexer().getByKey(podKey) as Pod | undefined;
    if (!p || !hasTrackingFinalizer(p) || this.ownerOf(p)) return;
    await ignoreNotFound(this.ctx.clientset.core.pods(namespace).patch(name, 'merge', removeFinalizerPatch(p)));
  }
}

/** The active pods beyond `want`, newest first (upstream deletes the least useful: not ready, newest). */
function surplus(active: Pod[], want: number): Pod[] {
  if (active.length <= want) return [];
  const order = [...active].sort((a, b) => Number(isReadyPod(a)) - Number(isReadyPod(b)) || (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? ''));
  return order.slice(0, active.length - want);
}

const isReadyPod = (p: Pod) => (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** The status as upstream marshals it: active, succeeded and failed are omitted at 0; ready and terminating are pointers. */
function clean(s: JobStatus): JobStatus {
  const out: JobStatus = { ...s };
  for (const f of ['active', 'succeeded', 'failed'] as const) if (!out[f]) delete out[f];
  const u = out.uncountedTerminatedPods ?? {};
  out.uncountedTerminatedPods = { ...(u.succeeded?.length ? { succeeded: u.succeeded } : {}), ...(u.failed?.length ? { failed: u.failed } : {}) };
  if (out.completedIndexes === '') delete out.completedIndexes;
  return out;
}
