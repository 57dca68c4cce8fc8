// The persistent volume controller (pkg/controller/volume/persistentvolume,
// "persistentvolume-binder"): binds claims to volumes, one to one, and
// keeps both phases true. A claim binds the smallest matching volume;
// a WaitForFirstConsumer claim waits for the scheduler's selected node; a
// claim with a class and no volume asks the class's provisioner (which in
// kubelab runs beside it: ../local-path). A volume whose claim is gone is
// Released and its reclaim policy applies. Upstream keeps two queues; one
// queue with `claim/` and `volume/` keys does the same here.

import {
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_STORAGE_PROVISIONER,
  isConflict,
  metaNamespaceKey,
  splitMetaNamespaceKey,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type PersistentVolumePhase,
  type StorageClass,
} from '@kubelab/api';
import { isTombstone, type EventRecorder, type Lister } from '@kubelab/client';
import { ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../../util/controller.js';
import { claimAction, volumeAction, type Ev } from './decisions.js';

const claimKey = (c: PersistentVolumeClaim) => `claim/${metaNamespaceKey(c)}`;
const volumeKey = (name: string) => `volume/${name}`;

export class PersistentVolumeController extends QueueController {
  private readonly claims: Lister<PersistentVolumeClaim>;
  private readonly volumes: Lister<PersistentVolume>;
  private readonly classes: Lister<StorageClass>;
  private readonly recorder: EventRecorder;

  constructor(private readonly ctx: ControllerContext) {
    super('persistentvolume-binder', ctx.logger, queueOptions(ctx));
    this.recorder = ctx.recorder('persistentvolume-controller');
    const claims = ctx.informers.core.persistentVolumeClaims();
    const volumes = ctx.informers.core.persistentVolumes();
    this.claims = claims.lister();
    this.volumes = volumes.lister();
    this.classes = ctx.informers.storage.storageClasses().lister();
    claims.addEventHandler({
      onAdd: (c) => this.enqueue(claimKey(c)),
      onUpdate: (_o, c) => this.enqueue(claimKey(c)),
      onDelete: (o) => {
        const c = isTombstone(o) ? o.obj : o;
        // The volume it held is released.
        if (c.spec?.volumeName) this.enqueue(volumeKey(c.spec.volumeName));
      },
    });
    const onVolume = (v: PersistentVolume) => {
      this.enqueue(volumeKey(v.metadata.name ?? ''));
      const ref = v.spec?.claimRef;
      if (ref?.name) this.enqueue(`claim/${ref.namespace ?? ''}/${ref.name}`);
    };
    volumes.addEventHandler({
      onAdd: onVolume,
      onUpdate: (_o, v) => onVolume(v),
      onDelete: (o) => {
        const v = isTombstone(o) ? o.obj : o;
        const ref = v.spec?.claimRef;
        if (ref?.name) this.enqueue(`claim/${ref.namespace ?? ''}/${ref.name}`);
      },
    });
  }

  async sync(key: string): Promise<void> {
    if (key.startsWith('claim/')) {
      const { namespace, name } = splitMetaNamespaceKey(key.slice('claim/'.length));
      const c = this.claims.namespace(namespace).get(name);
      if (c) await this.syncClaim(c);
    } else if (key.startsWith('volume/')) {
      const v = this.volumes.get(key.slice('volume/'.length));
      if (v) await this.syncVolume(v);
    }
  }

  private async syncClaim(claim: PersistentVolumeClaim): Promise<void> {
    const action = claimAction(claim, this.volumes.list(), (n) => this.classes.get(n));
    switch (action.kind) {
      case 'bind':
        return this.bind(action.volume, claim);
      case 'pending':
        if (action.event) this.emit(claim, action.event);
        await this.claimPhase(claim, 'Pending');
        return;
      case 'provision': {
        // The external provisioner watches for claims annotated with its name (both keys, as upstream sets).
        const a = claim.metadata.annotations ?? {};
        if (a[ANN_STORAGE_PROVISIONER] !== action.provisioner || a[ANN_BETA_STORAGE_PROVISIONER] !== action.provisioner) {
          const copy = structuredClone(claim);
          copy.metadata.annotations = { ...a, [ANN_STORAGE_PROVISIONER]: action.provisioner, [ANN_BETA_STORAGE_PROVISIONER]: action.provisioner };
          claim = await this.ctx.clientset.core.persistentVolumeClaims(claim.metadata.namespace).update(copy);
        }
        this.emit(claim, action.event);
        await this.claimPhase(claim, 'Pending');
        return;
      }
      case 'lost':
        this.emit(claim, action.event);
        await this.claimPhase(claim, 'Lost');
        return;
    }
  }

  /** bind: the volume's claimRef, its phase, the claim's volumeName and annotations, its status. */
  private async bind(volume: PersistentVolume, claim: PersistentVolumeClaim): Promise<void> {
    const ref = volume.spec?.claimRef;
    if (!ref || ref.uid !== claim.metadata.uid || ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace) {
      const copy = structuredClone(volume);
      copy.spec = {
        ...copy.spec,
        claimRef: {
          kind: 'PersistentVolumeClaim',
          namespace: claim.metadata.namespace!,
          name: claim.metadata.name!,
          uid: claim.metadata.uid!,
          apiVersion: 'v1',
          resourceVersion: claim.metadata.resourceVersion!,
        },
      };
      copy.metadata.annotations = { ...(copy.metadata.annotations ?? {}), [ANN_BOUND_BY_CONTROLLER]: 'yes' };
      volume = await this.ctx.clientset.core.persistentVolumes().update(copy);
    }
    volume = await this.volumePhase(volume, 'Bound');
    const a = claim.metadata.annotations ?? {};
    if (claim.spec?.volumeName !== volume.metadata.name || a[ANN_BIND_COMPLETED] !== 'yes') {
      const copy = structuredClone(claim);
      const setName = copy.spec?.volumeName !== volume.metadata.name;
      copy.spec = { ...copy.spec, volumeName: volume.metadata.name! };
      copy.metadata.annotations = { ...a, [ANN_BIND_COMPLETED]: 'yes', ...(setName ? { [ANN_BOUND_BY_CONTROLLER]: 'yes' } : {}) };
      claim = await this.ctx.clientset.core.persistentVolumeClaims(claim.metadata.namespace).update(copy);
    }
    const s = claim.status ?? {};
    const capacity = volume.spec?.capacity ?? {};
    const modes = volume.spec?.accessModes ?? [];
    if (s.phase !== 'Bound' || JSON.stringify(s.capacity ?? {}) !== JSON.stringify(capacity) || JSON.stringify(s.accessModes ?? []) !== JSON.stringify(modes)) {
      const copy = structuredClone(claim);
      copy.status = { ...s, phase: 'Bound', capacity, accessModes: modes };
      await this.ctx.clientset.core.persistentVolumeClaims(claim.metadata.namespace).updateStatus(copy);
    }
  }

  private async syncVolume(volume: PersistentVolume): Promise<void> {
    const ref = volume.spec?.claimRef;
    const claim = ref?.name ? this.claims.namespace(ref.namespace ?? '').get(ref.name) : undefined;
    const action = volumeAction(volume, claim);
    switch (action.kind) {
      case 'phase':
        await this.volumePhase(volume, action.phase);
        return;
      case 'sync-claim':
        if (claim) this.enqueue(claimKey(claim));
        return;
      case 'released': {
        const phase = volume.status?.phase;
        if (action.reclaim === 'failed') {
          if (phase === 'Failed') return;
          this.emit(volume, action.event!);
          await this.volumePhase(volume, 'Failed', action.event!.message);
          return;
        }
        // Retain keeps the data for the administrator; a provisioner's volume is deleted by its provisioner.
        if (phase !== 'Released' && phase !== 'Failed') await this.volumePhase(volume, 'Released');
        return;
      }
      case 'unbind': {
        const copy = structuredClone(volume);
        delete copy.spec!.claimRef;
        const a = { ...(copy.metadata.annotations ?? {}) };
        delete a[ANN_BOUND_BY_CONTROLLER];
        copy.metadata.annotations = a;
        const updated = await this.ctx.clientset.core.persistentVolumes().update(copy);
        await this.volumePhase(updated, 'Available');
        return;
      }
      case 'none':
        return;
    }
  }

  private async volumePhase(volume: PersistentVolume, phase: PersistentVolumePhase, message?: string): Promise<PersistentVolume> {
    if (volume.status?.phase === phase && (message === undefined || volume.status.message === message)) return volume;
    const copy = structuredClone(volume);
    copy.status = { ...(copy.status ?? {}), phase };
    if (message !== undefined) copy.status.message = message;
    else delete copy.status.message;
    return this.ctx.clientset.core.persistentVolumes().updateStatus(copy);
  }

  private async claimPhase(claim: PersistentVolumeClaim, phase: 'Pending' | 'Lost'): Promise<void> {
    if (claim.status?.phase === phase) return;
    const copy = structuredClone(claim);
    copy.status = { ...(copy.status ?? {}), phase };
    try {
      await ignoreNotFound(this.ctx.clientset.core.persistentVolumeClaims(claim.metadata.namespace).updateStatus(copy));
    } catch (err) {
      if (!isConflict(err)) throw err;
      this.enqueue(claimKey(claim));
    }
  }

  private emit(obj: PersistentVolume | PersistentVolumeClaim, e: Ev): void {
    this.recorder.event(obj, e.type, e.reason, e.message);
  }
}
