// The clusterrole-aggregation controller (pkg/controller/clusterroleaggregation):
// a ClusterRole with an aggregationRule holds the union of the rules of the
// ClusterRoles its selectors match, so adding a ClusterRole labelled
// `rbac.authorization.k8s.io/aggregate-to-view: "true"` extends view (and
// through it edit and admin). Any ClusterRole change may change any
// aggregate, and the set is small, so every change enqueues every
// aggregated role, as upstream does.

import type { ClusterRole } from '@kubelab/api';
import type { Lister } from '@kubelab/client';
import { QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { aggregatedRules, rulesEqual } from './decisions.js';

export class ClusterRoleAggregationController extends QueueController {
  private readonly lister: Lister<ClusterRole>;

  constructor(private readonly ctx: ControllerContext) {
    super('clusterrole-aggregation', ctx.logger, queueOptions(ctx));
    const inf = ctx.informers.rbac.clusterRoles();
    this.lister = inf.lister();
    inf.addEventHandler({
      onAdd: () => this.enqueueAggregated(),
      onUpdate: (o, n) => {
        if (o.metadata.resourceVersion !== n.metadata.resourceVersion) this.enqueueAggregated();
      },
      onDelete: () => this.enqueueAggregated(),
    });
  }

  private enqueueAggregated(): void {
    for (const r of this.lister.list()) if (r.aggregationRule) this.enqueue(r.metadata.name ?? '');
  }

  async sync(name: string): Promise<void> {
    const role = this.lister.get(name);
    if (!role?.aggregationRule) return;
    const rules = aggregatedRules(role, this.lister.list());
    if (rulesEqual(rules, role.rules)) return;
    // Upstream applies server-side; its fallback, an update of a copy, is what kubelab serves.
    await this.ctx.clientset.rbac.clusterRoles().update({ ...structuredClone(role), rules });
  }
}
