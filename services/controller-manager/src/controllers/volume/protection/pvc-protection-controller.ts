// The pvc-protection controller (pkg/controller/volume/pvcprotection): a
// deleted claim keeps its kubernetes.io/pvc-protection finalizer, and so
// stays Terminating, until no running pod uses it; then the finalizer goes
// and the claim with it.

import { metaNamespaceKey, PVC_PROTECTION_FINALIZER, splitMetaNamespaceKey, type PersistentVolumeClaim, type Pod } from '@kubelab/api';
import { isTombstone, type Lister } from '@kubelab/client';
import { ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../../util/controller.js';
import { claimFinalizerAction, withFinalizer } from './decisions.js';

export class PvcProtectionController extends QueueController {
  private readonly claims: Lister<PersistentVolumeClaim>;
  private readonly pods: Lister<Pod>;

  constructor(private readonly ctx: ControllerContext) {
    super('pvcprotection', ctx.logger, queueOptions(ctx));
    const claims = ctx.informers.core.persistentVolumeClaims();
    const pods = ctx.informers.core.pods();
    this.claims = claims.lister();
    this.pods = pods.lister();
    claims.addEventHandler({ onAdd: (c) => this.enqueue(metaNamespaceKey(c)), onUpdate: (_o, c) => this.enqueue(metaNamespaceKey(c)) });
    // A pod that stops or goes may free its claims.
    const onPod = (p: Pod) => {
      for (const v of p.spec?.volumes ?? []) if (v.persistentVolumeClaim?.claimName) this.enqueue(`${p.metadata.namespace}/${v.persistentVolumeClaim.claimName}`);
    };
    pods.addEventHandler({ onUpdate: (_o, p) => onPod(p), onDelete: (o) => onPod(isTombstone(o) ? o.obj : o) });
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const claim = this.claims.namespace(namespace).get(name);
    if (!claim) return;
    const action = claimFinalizerAction(claim, PVC_PROTECTION_FINALIZER, this.pods.namespace(namespace).list());
    if (action === 'none') return;
    const copy = structuredClone(claim);
    copy.metadata.finalizers = withFinalizer(copy.metadata.finalizers, PVC_PROTECTION_FINALIZER, action);
    await ignoreNotFound(this.ctx.clientset.core.persistentVolumeClaims(namespace).update(copy));
  }
}
