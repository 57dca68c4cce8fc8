// kubelab's rancher/local-path-provisioner: the external provisioner of the
// default `standard` class (kind's). It makes a hostPath volume on the node
// the scheduler selected for each claim annotated with its name, and, when
// such a volume is released with reclaimPolicy Delete, runs a helper pod on
// that node to remove the directory, then deletes the volume. Upstream it is
// a Deployment of its own; here a controller of the controller-manager
// (docs/architecture.md says why).

import { ANN_STORAGE_PROVISIONER, isAlreadyExists, metaNamespaceKey, splitMetaNamespaceKey, type PersistentVolume, type PersistentVolumeClaim, type Pod, type StorageClass } from '@kubelab/api';
import { isTombstone, type EventRecorder, type Lister } from '@kubelab/client';
import { ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../../util/controller.js';
import { deleteHelperPod, helperPodName, HELPER_NAMESPACE, isToDelete, LOCAL_PATH_PROVISIONER, nodeOf, provision } from './decisions.js';

export class LocalPathProvisioner extends QueueController {
  private readonly claims: Lister<PersistentVolumeClaim>;
  private readonly volumes: Lister<PersistentVolume>;
  private readonly classes: Lister<StorageClass>;
  private readonly pods: Lister<Pod>;
  private readonly recorder: EventRecorder;

  constructor(private readonly ctx: ControllerContext) {
    super('local-path-provisioner', ctx.logger, queueOptions(ctx));
    // Events as the provisioner library signs them: <provisioner>_<instance>.
    this.recorder = ctx.recorder(`${LOCAL_PATH_PROVISIONER}_local-path-provisioner`);
    const claims = ctx.informers.core.persistentVolumeClaims();
    const volumes = ctx.informers.core.persistentVolumes();
    const pods = ctx.informers.core.pods();
    this.claims = claims.lister();
    this.volumes = volumes.lister();
    this.classes = ctx.informers.storage.storageClasses().lister();
    this.pods = pods.lister();
    claims.addEventHandler({ onAdd: (c) => this.onClaim(c), onUpdate: (_o, c) => this.onClaim(c) });
    volumes.addEventHandler({ onAdd: (v) => this.onVolume(v), onUpdate: (_o, v) => this.onVolume(v) });
    // A helper pod's progress moves its volume's deletion on.
    const onPod = (p: Pod) => {
      if (p.metadata.namespace === HELPER_NAMESPACE && p.metadata.name?.startsWith('helper-pod-delete-')) this.enqueue(`volume/${p.metadata.name.slice('helper-pod-delete-'.length)}`);
    };
    pods.addEventHandler({ onAdd: onPod, onUpdate: (_o, p) => onPod(p), onDelete: (o) => onPod(isTombstone(o) ? o.obj : o) });
  }

  private onClaim(c: PersistentVolumeClaim): void {
    if (c.metadata.annotations?.[ANN_STORAGE_PROVISIONER] === LOCAL_PATH_PROVISIONER && !c.spec?.volumeName) this.enqueue(`claim/${metaNamespaceKey(c)}`);
  }

  private onVolume(v: PersistentVolume): void {
    if (isToDelete(v)) this.enqueue(`volume/${v.metadata.name}`);
  }

  async sync(key: string): Promise<void> {
    if (key.startsWith('claim/')) {
      const { namespace, name } = splitMetaNamespaceKey(key.slice('claim/'.length));
      const c = this.claims.namespace(namespace).get(name);
      if (c && c.metadata.annotations?.[ANN_STORAGE_PROVISIONER] === LOCAL_PATH_PROVISIONER) await this.provisionClaim(c);
    } else if (key.startsWith('volume/')) {
      const v = this.volumes.get(key.slice('volume/'.length));
      if (v && isToDelete(v)) await this.deleteVolume(v);
    }
  }

  private async provisionClaim(claim: PersistentVolumeClaim): Promise<void> {
    const d = provision(claim, this.classes.get(claim.spec?.storageClassName ?? ''), (n) => this.volumes.get(n));
    if (d.kind === 'skip') return;
    if (d.kind === 'fail') {
      this.recorder.event(claim, 'Warning', 'ProvisioningFailed', d.message);
      return;
    }
    this.recorder.event(claim, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${metaNamespaceKey(claim)}"`);
    try {
      await this.ctx.clientset.core.persistentVolumes().create(d.volume);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      return;
    }
    this.recorder.event(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${d.volume.metadata.name}`);
  }

  /** Delete: the helper pod removes the directory; once it succeeded the volume goes, then the pod. */
  private async deleteVolume(v: PersistentVolume): Promise<void> {
    const node = nodeOf(v);
    const pods = this.ctx.clientset.core.pods(HELPER_NAMESPACE);
    if (!node) {
      await ignoreNotFound(this.ctx.clientset.core.persistentVolumes().delete(v.metadata.name!));
      return;
    }
    const helper = this.pods.namespace(HELPER_NAMESPACE).get(helperPodName(v));
    if (!helper) {
      try {
        await pods.create(deleteHelperPod(v, node));
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
      }
      return;
    }
    const phase = helper.status?.phase;
    if (phase === 'Succeeded') {
      await ignoreNotFound(this.ctx.clientset.core.persistentVolumes().delete(v.metadata.name!));
      await ignoreNotFound(pods.delete(helper.metadata.name!));
    } else if (phase === 'Failed') {
      this.recorder.event(v, 'Warning', 'VolumeFailedDelete', `failed to delete volume ${v.metadata.name}: helper pod ${helper.metadata.name} failed`);
      await ignoreNotFound(pods.delete(helper.metadata.name!));
    }
  }
}
