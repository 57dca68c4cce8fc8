// The pv-protection controller (pkg/controller/volume/pvprotection): a
// deleted volume keeps its kubernetes.io/pv-protection finalizer while it is
// Bound to a claim.

import { PV_PROTECTION_FINALIZER, type PersistentVolume } from '@kubelab/api';
import type { Lister } from '@kubelab/client';
import { ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../../util/controller.js';
import { volumeFinalizerAction, withFinalizer } from './decisions.js';

export class PvProtectionController extends QueueController {
  private readonly volumes: Lister<PersistentVolume>;

  constructor(private readonly ctx: ControllerContext) {
    super('pvprotection', ctx.logger, queueOptions(ctx));
    const volumes = ctx.informers.core.persistentVolumes();
    this.volumes = volumes.lister();
    volumes.addEventHandler({ onAdd: (v) => this.enqueue(v.metadata.name ?? ''), onUpdate: (_o, v) => this.enqueue(v.metadata.name ?? '') });
  }

  async sync(name: string): Promise<void> {
    const volume = this.volumes.get(name);
    if (!volume) return;
    const action = volumeFinalizerAction(volume, PV_PROTECTION_FINALIZER);
    if (action === 'none') return;
    const copy = structuredClone(volume);
    copy.metadata.finalizers = withFinalizer(copy.metadata.finalizers, PV_PROTECTION_FINALIZER, action);
    await ignoreNotFound(this.ctx.clientset.core.persistentVolumes().update(copy));
  }
}
