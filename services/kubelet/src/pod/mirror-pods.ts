// Keeps each static pod's mirror pod current (upstream pkg/kubelet/kubelet.go
// SyncPod's "create mirror pod for static pod" step and the mirror deletions
// of HandlePodCleanups): the pod manager knows which mirror pod the kubelet
// has seen, the mirror client talks to the apiserver.

import type { Pod } from '@kubelab/api';
import type { Logger } from '@kubelab/component-base';
import { mirrorIsCurrent, type MirrorClient } from './mirror-client.js';
import { fullName, type PodManager } from './pod-manager.js';

export interface MirrorPodsOptions {
  podManager: PodManager;
  client: MirrorClient;
  nodeName: string;
  /** The Node's UID once it is registered: mirror pods are owned by it, so none is created before. */
  nodeUid: () => string | undefined;
  log: Logger;
}

export class MirrorPods {
  constructor(private readonly o: MirrorPodsOptions) {}

  /** The static pod's mirror pod exists and matches its config hash; true when it was (re)created just now. */
  async ensure(staticPod: Pod): Promise<boolean> {
    const nodeUid = this.o.nodeUid();
    if (!nodeUid) return false;
    const m = this.o.podManager.mirrorOf(staticPod);
    if (m && mirrorIsCurrent(staticPod, m)) return false;
    if (m) {
      this.o.log.info('Deleting mirror pod because it is outdated', { pod: fullName(staticPod) });
      await this.o.client.delete(m, true);
      this.o.podManager.removeMirror(m);
    }
    const created = await this.o.client.create(staticPod, { name: this.o.nodeName, uid: nodeUid });
    if (!created) return false;
    this.o.podManager.setMirror(created);
    return true;
  }

  /** The static pod is gone from its manifest: so is its mirror pod. */
  async delete(staticPod: Pod): Promise<void> {
    const m = this.o.podManager.mirrorOf(staticPod);
    if (!m) return;
    await this.o.client.delete(m);
    this.o.podManager.removeMirror(m);
  }
}
