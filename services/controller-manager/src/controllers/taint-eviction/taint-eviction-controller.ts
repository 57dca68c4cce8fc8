// The taint eviction controller (pkg/controller/tainteviction, formerly the
// NoExecuteTaintManager): pods on nodes with NoExecute taints are deleted
// when their tolerations run out, with a TaintManagerEviction event and a
// DisruptionTarget condition. Node and pod changes are queued as keys; each
// pending deletion is one timer, cancelled when the taint goes away.

import { formatTime, type Node, type Pod } from '@kubelab/api';
import { isTombstone, NODE_NAME_INDEX, type EventRecorder, type Lister, type SharedIndexInformer, type Timer } from '@kubelab/client';
import { errText, ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { evictionDecision, noExecuteTaints } from './decisions.js';

interface ScheduledEviction {
  createdAt: number;
  fireAt: number;
  timer: Timer;
}

export class TaintEvictionController extends QueueController {
  private readonly nodeLister: Lister<Node>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly recorder: EventRecorder;
  /** Pending deletions by pod key (the taintEvictionQueue). */
  readonly scheduled = new Map<string, ScheduledEviction>();
  private stopped = false;

  constructor(private readonly ctx: ControllerContext) {
    super('taint-eviction', ctx.logger, queueOptions(ctx));
    this.recorder = ctx.recorder('taint-eviction-controller');
    const nodes = ctx.informers.core.nodes();
    this.nodeLister = nodes.lister();
    this.pods = ctx.informers.core.pods();
    nodes.addEventHandler({
      onAdd: (n) => this.enqueue(`node:${n.metadata.name}`),
      onUpdate: (o, n) => {
        if (JSON.stringify(noExecuteTaints(o.spec?.taints)) !== JSON.stringify(noExecuteTaints(n.spec?.taints))) this.enqueue(`node:${n.metadata.name}`);
      },
      onDelete: (o) => this.enqueue(`node:${(isTombstone(o) ? o.obj : o).metadata.name}`),
    });
    this.pods.addEventHandler({
      onAdd: (p) => this.enqueue(`pod:${p.metadata.namespace}/${p.metadata.name}`),
      onUpdate: (o, p) => {
        if (o.spec?.nodeName !== p.spec?.nodeName || JSON.stringify(o.spec?.tolerations) !== JSON.stringify(p.spec?.tolerations)) {
          this.enqueue(`pod:${p.metadata.namespace}/${p.metadata.name}`);
        }
      },
      onDelete: (o) => {
        const p = isTombstone(o) ? o.obj : o;
        this.enqueue(`pod:${p.metadata.namespace}/${p.metadata.name}`);
      },
    });
  }

  protected override onStop(): void {
    this.stopped = true;
    for (const s of this.scheduled.values()) s.timer.stop();
    this.scheduled.clear();
  }

  async sync(key: string): Promise<void> {
    if (key.startsWith('node:')) return this.handleNode(key.slice(5));
    const podKey = key.slice(4);
    const [ns, name] = podKey.split('/') as [string, string];
    const pod = this.pods.lister().namespace(ns).get(name);
    if (!pod) {
      this.cancel(podKey, false);
      return;
    }
    const nodeName = pod.spec?.nodeName;
    if (!nodeName) return;
    const node = this.nodeLister.get(nodeName);
    if (!node) return;
    this.processPodOnNode(pod, node);
  }

  private handleNode(name: string): void {
    const node = this.nodeLister.get(name);
    const pods = this.pods.getIndexer().byIndex(NODE_NAME_INDEX, name);
    for (const pod of pods) {
      if (!node || noExecuteTaints(node.spec?.taints).length === 0) this.cancel(podKeyOf(pod), true);
      else this.processPodOnNode(pod, node);
    }
  }

  private processPodOnNode(pod: Pod, node: Node): void {
    const key = podKeyOf(pod);
    const d = evictionDecision(node.spec?.taints, pod.spec?.tolerations);
    const now = this.clock.now();
    if (d.kind === 'cancel') return this.cancel(key, true);
    if (d.kind === 'now') {
      this.cancel(key, false);
      return this.schedule(key, now, now);
    }
    const existing = this.scheduled.get(key);
    // A deletion already scheduled stands (upstream keeps the worker created earlier).
    if (existing && existing.createdAt < now) return;
    if (existing) this.cancel(key, false);
    this.schedule(key, now, now + d.ms);
  }

  private schedule(key: string, createdAt: number, fireAt: number): void {
    if (this.stopped) return;
    const timer = this.clock.setTimeout(() => void this.evict(key), Math.max(0, fireAt - this.clock.now()));
    this.scheduled.set(key, { createdAt, fireAt, timer });
  }

  /** cancelWorkForPod: with an event when a scheduled deletion is called off. */
  private cancel(key: string, emit: boolean): void {
    const s = this.scheduled.get(key);
    if (!s) return;
    s.timer.stop();
    this.scheduled.delete(key);
    if (emit) {
      const [namespace, name] = key.split('/') as [string, string];
      this.recorder.eventf({ apiVersion: 'v1', kind: 'Pod', namespace, name }, 'Normal', 'TaintManagerEviction', 'Cancelling deletion of Pod %s', key);
    }
  }

  /** deletePodHandler: event, DisruptionTarget condition, delete. */
  private async evict(key: string): Promise<void> {
    this.scheduled.delete(key);
    const [namespace, name] = key.split('/') as [string, string];
    this.recorder.eventf({ apiVersion: 'v1', kind: 'Pod', namespace, name }, 'Normal', 'TaintManagerEviction', 'Marking for deletion Pod %s', key);
    const pods = this.ctx.clientset.core.pods(namespace);
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        const pod = await ignoreNotFound(pods.get(name));
        if (!pod) return;
        if (!pod.status?.conditions?.some((c) => c.type === 'DisruptionTarget' && c.status === 'True')) {
          const copy = structuredClone(pod);
          copy.status = {
            ...(copy.status ?? {}),
            conditions: [
              ...(copy.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget'),
              {
                type: 'DisruptionTarget',
                status: 'True',
                reason: 'DeletionByTaintManager',
                message: 'Taint manager: deleting due to NoExecute taint',
                lastTransitionTime: formatTime(this.clock.now()),
              },
            ],
          };
          await pods.updateStatus(copy);
        }
        await ignoreNotFound(pods.delete(name));
        return;
      } catch (err) {
        this.log.info('evicting pod failed, retrying', { pod: key, err: errText(err) });
        await this.clock.sleep(10);
      }
    }
  }
}

const podKeyOf = (p: Pod) => `${p.metadata.namespace}/${p.metadata.name}`;
