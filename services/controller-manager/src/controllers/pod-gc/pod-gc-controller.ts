// The pod garbage collector (pkg/controller/podgc): every gcCheckPeriod
// (20 s) it deletes terminated pods beyond --terminated-pod-gc-threshold
// (oldest first), pods bound to nodes that no longer exist (after a 40 s
// quarantine and a live check), and unscheduled pods stuck terminating.
// A periodic sweep upstream too.

import { formatTime, isNotFound, isPodTerminal, type Node, type Pod } from '@kubelab/api';
import type { Lister } from '@kubelab/client';
import { errText, ignoreNotFound, type Controller, type ControllerContext } from '../../util/controller.js';
import { runEvery } from '../../util/periodic.js';
import { missingNodes, terminatedToDelete, unscheduledTerminating } from './decisions.js';

export class PodGcController implements Controller {
  readonly name = 'pod-gc';
  private readonly podLister: Lister<Pod>;
  private readonly nodeLister: Lister<Node>;
  /** Node name → when the node was first found missing. */
  private readonly quarantine = new Map<string, number>();

  constructor(private readonly ctx: ControllerContext) {
    this.podLister = ctx.informers.core.pods().lister();
    this.nodeLister = ctx.informers.core.nodes().lister();
  }

  run(signal: AbortSignal): Promise<void> {
    return runEvery(
      this.ctx.clock,
      () => this.ctx.config.podGcPeriodMs,
      signal,
      () => this.gc(),
      (err) => this.ctx.logger.warn('pod gc failed', { err: errText(err) }),
    );
  }

  /** One sweep (exposed as a step for tests). */
  async gc(): Promise<void> {
    const pods = this.podLister.list();
    for (const p of terminatedToDelete(pods, this.ctx.config.terminatedPodGcThreshold)) await this.forceDelete(p);
    await this.gcOrphaned(pods);
    for (const p of unscheduledTerminating(pods)) await this.forceDelete(p);
  }

  private async gcOrphaned(pods: Pod[]): Promise<void> {
    const known = new Set(this.nodeLister.list().map((n) => n.metadata.name ?? ''));
    const missing = missingNodes(pods, known);
    const now = this.ctx.clock.now();
    for (const n of [...this.quarantine.keys()]) if (!missing.has(n)) this.quarantine.delete(n);
    for (const n of missing) {
      const since = this.quarantine.get(n);
      if (since === undefined) {
        this.quarantine.set(n, now);
        continue;
      }
      if (now - since < this.ctx.config.podGcQuarantineMs) continue;
      // The cache may lag: only a NotFound from the apiserver proves the node is gone.
      try {
        await this.ctx.clientset.core.nodes().get(n);
        this.quarantine.delete(n);
        continue;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      for (const p of pods.filter((x) => x.spec?.nodeName === n)) {
        this.ctx.logger.info('Found orphaned Pod assigned to the Node, deleting', { pod: `${p.metadata.namespace}/${p.metadata.name}`, node: n });
        await this.markFailed(p, 'DeletionByPodGC', 'PodGC: node no longer exists');
        await this.forceDelete(p);
      }
      this.quarantine.delete(n);
    }
  }

  /** markFailedAndDeletePodWithCondition's status half: phase Failed plus DisruptionTarget. */
  private async markFailed(p: Pod, reason: string, message: string): Promise<void> {
    if (isPodTerminal(p)) return;
    const copy = structuredClone(p);
    copy.status = {
      ...(copy.status ?? {}),
      phase: 'Failed',
      conditions: [
        ...(copy.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget'),
        { type: 'DisruptionTarget', status: 'True', reason, message, lastTransitionTime: formatTime(this.ctx.clock.now()) },
      ],
    };
    await ignoreNotFound(this.ctx.clientset.core.pods(p.metadata.namespace ?? 'default').updateStatus(copy)).catch(() => undefined);
  }

  private async forceDelete(p: Pod): Promise<void> {
    await ignoreNotFound(this.ctx.clientset.core.pods(p.metadata.namespace ?? 'default').delete(p.metadata.name ?? '', { gracePeriodSeconds: 0 }));
  }
}
