// The disruption controller (upstream pkg/controller/disruption): keeps each
// PodDisruptionBudget's status current — the pods it expects (from their
// controllers' scale), how many are healthy, how many must be, and so how
// many evictions it allows now. The eviction subresource spends that
// allowance; this controller earns it back as pods come and go.

import { controllerRef, isConflict, isNotFound, labelSelectorAsSelector, type Deployment, type KubeObject, type Pod, type PodDisruptionBudget, type ReplicaSet } from '@kubelab/api';
import { isTombstone, metaNamespaceKey, splitMetaNamespaceKey, type EventRecorder, type Lister } from '@kubelab/client';
import { errText, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { buildDisruptedPodMap, countHealthyPods, expectedPodCount, failSafeStatus, nextStatus, SyncError, type ControllerScale, type ScaleFinder } from './decisions.js';

export class DisruptionController extends QueueController {
  private readonly pdbLister: Lister<PodDisruptionBudget>;
  private readonly podLister: Lister<Pod>;
  private readonly rsLister: Lister<ReplicaSet>;
  private readonly deployLister: Lister<Deployment>;
  private readonly recorder: EventRecorder;

  constructor(private readonly ctx: ControllerContext) {
    super('disruption', ctx.logger, queueOptions(ctx));
    this.recorder = ctx.recorder('controllermanager');
    const pdbs = ctx.informers.policy.podDisruptionBudgets();
    const pods = ctx.informers.core.pods();
    this.pdbLister = pdbs.lister();
    this.podLister = pods.lister();
    this.rsLister = ctx.informers.apps.replicaSets().lister();
    this.deployLister = ctx.informers.apps.deployments().lister();
    pdbs.addEventHandler({
      onAdd: (pdb) => this.enqueue(metaNamespaceKey(pdb)),
      onUpdate: (_old, cur) => this.enqueue(metaNamespaceKey(cur)),
      onDelete: (obj) => this.enqueue(metaNamespaceKey(isTombstone(obj) ? obj.obj : obj)),
    });
    pods.addEventHandler({
      onAdd: (pod) => this.enqueuePodBudget(pod),
      onUpdate: (old, cur) => {
        if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
        this.enqueuePodBudget(cur);
      },
      onDelete: (obj) => this.enqueuePodBudget(isTombstone(obj) ? obj.obj : obj),
    });
  }

  /** getPdbForPod: the budget of a pod; with several, the first by name (and a MultiplePodDisruptionBudgets event). */
  private enqueuePodBudget(pod: Pod): void {
    const pdbs = this.pdbLister
      .namespace(pod.metadata.namespace ?? '')
      .list()
      .filter((pdb) => selects(pdb, pod))
      .sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
    if (pdbs.length === 0) return;
    if (pdbs.length > 1) {
      this.recorder.event(
        pod,
        'Warning',
        'MultiplePodDisruptionBudgets',
        `Pod "${pod.metadata.namespace}"/"${pod.metadata.name}" matches multiple PodDisruptionBudgets.  Chose "${pdbs[0]!.metadata.name}" arbitrarily.`,
      );
    }
    this.enqueue(metaNamespaceKey(pdbs[0]!));
  }

  /** The finders, in upstream's order: a ReplicaSet not owned by a Deployment, then a Deployment through its ReplicaSet. */
  private readonly findScale: ScaleFinder = (ref, ns) => {
    if (ref.kind !== 'ReplicaSet' || !ref.apiVersion.startsWith('apps/')) return undefined;
    const rs = this.rsLister.namespace(ns).get(ref.name);
    if (!rs || rs.metadata.uid !== ref.uid) return undefined;
    const owner = controllerRef(rs);
    if (!owner) return { uid: rs.metadata.uid!, scale: rs.spec?.replicas ?? 1 } satisfies ControllerScale;
    if (owner.kind !== 'Deployment') return undefined;
    const d = this.deployLister.namespace(ns).get(owner.name);
    if (!d || d.metadata.uid !== owner.uid) return undefined;
    return { uid: d.metadata.uid!, scale: d.spec?.replicas ?? 1 };
  };

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const pdb = this.pdbLister.namespace(namespace).get(name);
    if (!pdb) return;
    try {
      await this.trySync(pdb);
    } catch (err) {
      // A conflict is requeued as it is; anything else leaves the budget allowing nothing.
      if (isConflict(err)) throw err;
      this.log.warn('Failed to sync pdb', { pdb: key, err: errText(err) });
      await this.updateStatus(pdb, failSafeStatus(pdb, errText(err), this.clock.now()));
    }
  }

  private async trySync(pdb: PodDisruptionBudget): Promise<void> {
    const pods = this.podLister
      .namespace(pdb.metadata.namespace ?? '')
      .list()
      .filter((p) => selects(pdb, p));
    if (pods.length === 0) this.recorder.event(pdb, 'Normal', 'NoPods', 'No matching pods found');
    let expected;
    try {
      expected = expectedPodCount(pdb, pods, this.findScale);
    } catch (err) {
      if (err instanceof SyncError) this.recorder.event(pdb, 'Warning', err.reason, err.message);
      this.recorder.event(pdb, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${errText(err)}`);
      throw err;
    }
    if (expected.unmanagedPods.length > 0) {
      this.recorder.event(
        pdb,
        'Warning',
        'UnmanagedPods',
        'Pods selected by this PodDisruptionBudget (selector: ' +
          selectorText(pdb) +
          ') were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
      );
    }
    const now = this.clock.now();
    const disrupted = buildDisruptedPodMap(pods, pdb, now);
    for (const pod of disrupted.notDeleted) {
      this.recorder.event(pod, 'Warning', 'NotDeleted', `Pod was expected by PDB ${pdb.metadata.namespace}/${pdb.metadata.name} to be deleted but it wasn't`);
    }
    const healthy = countHealthyPods(pods, disrupted.disruptedPods, now);
    const status = nextStatus(pdb, healthy, expected.desiredHealthy, expected.expectedCount, disrupted.disruptedPods, now);
    if (status) await this.updateStatus(pdb, status);
    // Look again when the oldest awaited eviction times out.
    if (disrupted.recheckAt !== undefined) this.queue.addAfter(metaNamespaceKey(pdb), Math.max(0, disrupted.recheckAt - now));
  }

  private async updateStatus(pdb: PodDisruptionBudget, status: PodDisruptionBudget['status']): Promise<void> {
    try {
      await this.ctx.clientset.policy.podDisruptionBudgets(pdb.metadata.namespace).updateStatus({ ...pdb, status } as PodDisruptionBudget);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

function selects(pdb: PodDisruptionBudget, pod: KubeObject): boolean {
  try {
    return labelSelectorAsSelector(pdb.spec?.selector).matches(pod.metadata.labels ?? {});
  } catch {
    return false;
  }
}

/** The selector as Go's %v of a *metav1.LabelSelector (its generated String()) prints in the UnmanagedPods event. */
function selectorText(pdb: PodDisruptionBudget): string {
  const s = pdb.spec?.selector;
  if (!s) return '<nil>';
  const labels = Object.keys(s.matchLabels ?? {})
    .sort()
    .map((k) => `${k}: ${s.matchLabels![k]},`)
    .join('');
  const exprs = (s.matchExpressions ?? []).map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}
