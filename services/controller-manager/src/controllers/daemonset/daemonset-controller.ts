// The DaemonSet controller (pkg/controller/daemon): one pod per eligible
// node, created unscheduled with a required node affinity on
// metadata.name=<node> so the scheduler binds it; RollingUpdate replaces
// old pods within maxUnavailable; OnDelete waits for the user.

import { controllerRef, isNotFound, labelSelectorAsSelector, newControllerRef, type ControllerRevision, type DaemonSet, type Node, type Pod } from '@kubelab/api';
import { isTombstone, metaNamespaceKey, splitMetaNamespaceKey, type Lister, type SharedIndexInformer } from '@kubelab/client';
import { QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { ControllerExpectations } from '../../util/expectations.js';
import { CONTROLLER_UID_INDEX, controllerIndexers } from '../../util/indexers.js';
import { PodControl, slowStartBatch } from '../../util/pod-control.js';
import { constructHistory, daemonSetRevisionsToDelete } from './history.js';
import {
  daemonSetStatus,
  decideNodes,
  maxSurgeCount,
  maxUnavailableCount,
  newDaemonPod,
  planDaemonPods,
  rollingUpdateDeletes,
  surgingRollingUpdate,
  targetNodeName,
  templateHash,
} from './decisions.js';

export class DaemonSetController extends QueueController {
  private readonly dsLister: Lister<DaemonSet>;
  private readonly nodeLister: Lister<Node>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly revisions: SharedIndexInformer<ControllerRevision>;
  private readonly podControl: PodControl;
  readonly expectations: ControllerExpectations;

  constructor(private readonly ctx: ControllerContext) {
    super('daemonset', ctx.logger, queueOptions(ctx));
    this.expectations = new ControllerExpectations(ctx.clock);
    this.podControl = new PodControl(ctx.clientset, ctx.recorder('daemonset-controller'));
    const dsInf = ctx.informers.apps.daemonSets();
    const nodes = ctx.informers.core.nodes();
    this.pods = ctx.informers.core.pods({ indexers: controllerIndexers });
    this.revisions = ctx.informers.apps.controllerRevisions({ indexers: controllerIndexers });
    this.dsLister = dsInf.lister();
    this.nodeLister = nodes.lister();
    dsInf.addEventHandler({
      onAdd: (d) => this.enqueue(metaNamespaceKey(d)),
      onUpdate: (_o, d) => this.enqueue(metaNamespaceKey(d)),
      onDelete: (o) => {
        const d = isTombstone(o) ? o.obj : o;
        this.expectations.delete(metaNamespaceKey(d));
      },
    });
    const all = () => {
      for (const d of this.dsLister.list()) this.enqueue(metaNamespaceKey(d));
    };
    nodes.addEventHandler({
      onAdd: all,
      onUpdate: (o, n) => {
        if (JSON.stringify([o.metadata.labels, o.spec?.taints]) !== JSON.stringify([n.metadata.labels, n.spec?.taints])) all();
      },
      onDelete: all,
    });
    const owner = (p: Pod) => {
      const ref = controllerRef(p);
      if (ref?.kind !== 'DaemonSet') return undefined;
      const d = this.dsLister.namespace(p.metadata.namespace ?? '').get(ref.name);
      return d?.metadata.uid === ref.uid ? d : undefined;
    };
    this.pods.addEventHandler({
      onAdd: (p) => {
        const d = owner(p);
        if (!d) return;
        this.expectations.creationObserved(metaNamespaceKey(d));
        this.enqueue(metaNamespaceKey(d));
      },
      onUpdate: (o, p) => {
        if (o.metadata.resourceVersion === p.metadata.resourceVersion) return;
        const d = owner(p);
        if (!d) return;
        if (p.metadata.deletionTimestamp && !o.metadata.deletionTimestamp) this.expectations.deletionObserved(metaNamespaceKey(d), metaNamespaceKey(p));
        this.enqueue(metaNamespaceKey(d));
      },
      onDelete: (o) => {
        const p = isTombstone(o) ? o.obj : o;
        const d = owner(p);
        if (!d) return;
        this.expectations.deletionObserved(metaNamespaceKey(d), metaNamespaceKey(p));
        this.enqueue(metaNamespaceKey(d));
      },
    });
  }

  private podsByNode(ds: DaemonSet): Map<string, Pod[]> {
    const out = new Map<string, Pod[]>();
    for (const p of this.pods.getIndexer().byIndex(CONTROLLER_UID_INDEX, ds.metadata.uid ?? '')) {
      const n = targetNodeName(p);
      if (!n) continue;
      if (!out.has(n)) out.set(n, []);
      out.get(n)!.push(p);
    }
    return out;
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const ds = this.dsLister.namespace(namespace).get(name);
    if (!ds) {
      this.expectations.delete(key);
      return;
    }
    try {
      if (labelSelectorAsSelector(ds.spec?.selector).empty()) return;
    } catch {
      return;
    }
    // Taints, selector and affinity are checked once per node; every step below reads the same decisions.
    const nodes = decideNodes(ds, this.nodeLister.list());
    if (ds.metadata.deletionTimestamp) return;
    const revisions = this.revisions.getIndexer().byIndex(CONTROLLER_UID_INDEX, ds.metadata.uid ?? '');
    const current = await constructHistory(this.ctx.clientset, ds, revisions);
    if (this.expectations.satisfied(key)) {
      const byNode = this.podsByNode(ds);
      const surge = maxSurgeCount(ds, nodes);
      const plan = planDaemonPods(nodes, byNode, surge > 0 ? templateHash(ds) : undefined);
      let creates = plan.create;
      let deletes = plan.delete;
      if ((ds.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
        const update: { create: string[]; delete: Pod[] } =
          surge > 0
            ? surgingRollingUpdate(ds, nodes, byNode, surge, this.clock.now())
            : { create: [], delete: rollingUpdateDeletes(ds, nodes, byNode, maxUnavailableCount(ds, nodes), this.clock.now()) };
        creates = [...creates, ...update.create.filter((n) => !creates.includes(n))];
        deletes = [...deletes, ...update.delete.filter((p) => !deletes.includes(p))];
      }
      await this.manage(key, ds, creates, deletes);
      // cleanupHistory, once the pods are as planned.
      const all = revisions.some((r) => r.metadata.name === current.metadata.name) ? revisions : [...revisions, current];
      const pods = [...byNode.values()].flat();
      for (const r of daemonSetRevisionsToDelete(ds, all, current, pods)) {
        await this.ctx.clientset.apps
          .controllerRevisions(namespace)
          .delete(r.metadata.name ?? '')
          .catch((err: unknown) => {
            if (!isNotFound(err)) throw err;
          });
      }
    }
    const status = daemonSetStatus(ds, nodes, this.podsByNode(ds), this.clock.now());
    const cur = ds.status;
    if (JSON.stringify({ ...cur, conditions: undefined, collisionCount: undefined }) !== JSON.stringify(status)) {
      const copy = structuredClone(ds);
      copy.status = { ...status, ...(cur?.collisionCount !== undefined ? { collisionCount: cur.collisionCount } : {}), ...(cur?.conditions ? { conditions: cur.conditions } : {}) };
      await this.ctx.clientset.apps.daemonSets(namespace).updateStatus(copy);
    }
  }

  private async manage(key: string, ds: DaemonSet, create: string[], del: Pod[]): Promise<void> {
    this.expectations.expectCreations(key, create.length);
    const ns = ds.metadata.namespace ?? 'default';
    const ref = newControllerRef(ds, 'apps/v1', 'DaemonSet');
    const queue = [...create];
    const res = await slowStartBatch(create.length, 1, async () => {
      const node = queue.shift()!;
      const pod = newDaemonPod(ds, node);
      pod.metadata.ownerReferences = [ref];
      await this.podControl.createPod(pod, ds);
    });
    if (res.error !== undefined) this.expectations.lowerCreations(key, create.length - res.successes);
    if (del.length) {
      // Deletions are tracked separately so a create burst's expectations stay intact.
      const results = await Promise.allSettled(del.map((p) => this.podControl.deletePod(ns, p.metadata.name ?? '', ds)));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed && res.error === undefined) throw failed.reason;
    }
    if (res.error !== undefined) throw res.error;
  }
}
