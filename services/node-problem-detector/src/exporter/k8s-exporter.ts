// The k8s exporter (upstream pkg/exporters/k8sexporter and its
// problemclient): waits for its Node, then records each status's events as
// core/v1 Events about the node (source component = the monitor's source,
// host = the node) and keeps the node's conditions in sync through
// `patch nodes/<name>/status` via the condition manager.

import type { Node, ObjectReference } from '@kubelab/api';
import { EventBroadcaster, clientsetEventSink, type Clientset, type EventRecorder } from '@kubelab/client';
import type { Logger } from '@kubelab/component-base';
import type { Status } from '../types.js';
import { ConditionManager, UPDATE_PERIOD_MS } from './condition-manager.js';
import { conditionsPatch } from './conditions-patch.js';

export interface K8sExporterOptions {
  clientset: Clientset;
  nodeName: string;
  /** --event-namespace ('' = the default namespace, as upstream's recorder). */
  eventNamespace: string;
  heartbeatPeriodMs: number;
  writeEvents: boolean;
  updateNodeConditions: boolean;
  apiserverWaitTimeoutMs: number;
  apiserverWaitIntervalMs: number;
  logger: Logger;
  now?: () => number;
}

export class K8sExporter {
  private readonly manager: ConditionManager;
  private readonly broadcaster: EventBroadcaster;
  private readonly recorders = new Map<string, EventRecorder>();
  private nodeRef: ObjectReference;
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private readonly abort = new AbortController();

  constructor(private readonly opts: K8sExporterOptions) {
    this.manager = new ConditionManager(opts.heartbeatPeriodMs);
    this.broadcaster = new EventBroadcaster({ sink: clientsetEventSink(opts.clientset) });
    this.nodeRef = { apiVersion: 'v1', kind: 'Node', name: opts.nodeName, namespace: opts.eventNamespace };
  }

  /** Waits for the node (waitForAPIServerReadyWithTimeout), then starts the sync loop. */
  async start(): Promise<void> {
    const { logger, apiserverWaitTimeoutMs, apiserverWaitIntervalMs } = this.opts;
    logger.info('Waiting for kube-apiserver to be ready', { timeout: `${apiserverWaitTimeoutMs}ms` });
    const deadline = Date.now() + apiserverWaitTimeoutMs;
    for (;;) {
      try {
        this.cacheNodeRef(await this.opts.clientset.core.nodes().get(this.opts.nodeName));
        break;
      } catch (err) {
        logger.error("Can't get node object", { err: (err as Error).message });
        if (Date.now() >= deadline || this.abort.signal.aborted) {
          logger.warn('kube-apiserver did not become ready: timed out on waiting for kube-apiserver to return the node object');
          break;
        }
        await new Promise((r) => setTimeout(r, apiserverWaitIntervalMs));
      }
    }
    this.broadcaster.startRecordingToSink();
    this.timer = setInterval(() => void this.syncOnce(), UPDATE_PERIOD_MS);
  }

  exportProblems(status: Status): void {
    if (this.opts.writeEvents) {
      for (const e of status.events) this.recorder(status.source).event(this.nodeRef, e.severity === 'warn' ? 'Warning' : 'Normal', e.reason, e.message);
    }
    if (this.opts.updateNodeConditions) for (const c of status.conditions) this.manager.updateCondition(c);
  }

  getConditions() {
    return this.manager.getConditions();
  }

  /** One tick of the condition manager's loop (exposed for tests). */
  async syncOnce(): Promise<void> {
    if (this.syncing) return;
    const now = (this.opts.now ?? Date.now)();
    const conditions = this.manager.tick(now);
    if (!conditions) return;
    this.syncing = (async () => {
      try {
        const node = await this.opts.clientset.core.nodes().patch(this.opts.nodeName, 'strategic', conditionsPatch(conditions, now), { subresource: 'status' });
        this.cacheNodeRef(node);
      } catch (err) {
        this.opts.logger.error('failed to update node conditions', { err: (err as Error).message });
        this.manager.syncFailed();
      }
    })();
    await this.syncing;
    this.syncing = undefined;
  }

  async stop(): Promise<void> {
    this.abort.abort();
    if (this.timer) clearInterval(this.timer);
    await this.syncing;
    await this.broadcaster.drainAndShutdown();
  }

  private recorder(source: string): EventRecorder {
    let r = this.recorders.get(source);
    if (!r) this.recorders.set(source, (r = this.broadcaster.newRecorder({ component: source, host: this.opts.nodeName })));
    return r;
  }

  private cacheNodeRef(node: Node): void {
    if (node.metadata.uid && !this.nodeRef.uid) this.nodeRef = { ...this.nodeRef, uid: node.metadata.uid };
  }
}
