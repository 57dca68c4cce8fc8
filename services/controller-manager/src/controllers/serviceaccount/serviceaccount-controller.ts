// The service account controller (pkg/controller/serviceaccount): every
// active namespace has a ServiceAccount named `default`; deleting it brings
// it back.

import { isAlreadyExists, type Namespace, type ServiceAccount } from '@kubelab/api';
import { isTombstone, type Lister } from '@kubelab/client';
import { QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

export class ServiceAccountController extends QueueController {
  private readonly nsLister: Lister<Namespace>;
  private readonly saLister: Lister<ServiceAccount>;

  constructor(private readonly ctx: ControllerContext) {
    super('serviceaccount', ctx.logger, queueOptions(ctx));
    const ns = ctx.informers.core.namespaces();
    const sa = ctx.informers.core.serviceAccounts();
    this.nsLister = ns.lister();
    this.saLister = sa.lister();
    ns.addEventHandler({
      onAdd: (n) => this.enqueue(n.metadata.name ?? ''),
      onUpdate: (_o, n) => this.enqueue(n.metadata.name ?? ''),
    });
    sa.addEventHandler({
      onDelete: (o) => {
        const s = isTombstone(o) ? o.obj : o;
        if (s.metadata.name === DEFAULT_SERVICE_ACCOUNT) this.enqueue(s.metadata.namespace ?? '');
      },
    });
  }

  async sync(name: string): Promise<void> {
    const ns = this.nsLister.get(name);
    if (!ns || ns.metadata.deletionTimestamp || (ns.status?.phase ?? 'Active') !== 'Active') return;
    if (this.saLister.namespace(name).get(DEFAULT_SERVICE_ACCOUNT)) return;
    try {
      await this.ctx.clientset.core.serviceAccounts(name).create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace: name } });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }
}
