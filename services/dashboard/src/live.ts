// The dashboard's live state: watches of nodes, pods, leases and events (one
// shared informer each, as the ServiceAccount kube-system:kubelab-dashboard)
// and NATS subscriptions to the CRI, API and kube-proxy sync records. Everything arrives
// pushed; nothing is polled. Subscribers (the page's event streams) hear the
// map as it changes and the flow messages in batches.

import type { Deployment, Event, KubeObject, Lease, Node, Pod } from '@kubelab/api';
import { SharedInformerFactory, type Clientset } from '@kubelab/client';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { announceListening, type Announcement } from '@kubelab/nats';
import { FlowBuffer, type FlowMessage } from './flow.js';
import { apiMessage, criMessage, eventMessage, proxyMessage, watchDeliveryMessages, watchMessage, type Unsequenced } from './records.js';
import type { ComponentView, DeploymentView, MapState, NodeView, PodView } from './map-state.js';
import { decodeSchedulingDecisionRecord, SCHED_SUBJECT_ALL, type SchedulingDecisionRecord } from '@kubelab/proto/sched-record';
import { DecisionStore, decisionMessage } from './sched-view.js';

export type { ComponentView, DeploymentView, MapState, NodeView, PodView };

export const CRI_SUBJECT = 'kubelab.cri.>';
export const API_SUBJECT = 'kubelab.api.>';
export const PROXY_SUBJECT = 'kubelab.proxy.>';
export const WATCH_SUBJECT_PREFIX = 'kubelab.api.watch.';

export interface LiveOptions {
  clientset?: Clientset;
  nats?: NatsConnection;
  bufferSize: number;
  nodeMonitorGracePeriodMs: number;
  /** How often batched flow messages go out. */
  flushMs?: number;
  now?: () => number;
  /** Tells what the dashboard cannot show (a subscription refused). */
  note?: (message: string) => void;
}

export type LiveListener = { map(state: MapState): void; flow(batch: FlowMessage[]): void; sched?(batch: SchedulingDecisionRecord[]): void };

const LEADER_LEASES: Record<string, string> = { 'kube-scheduler': 'scheduler', 'kube-controller-manager': 'controller-manager' };

// One collator each (localeCompare with options builds one per call): the map is sorted up to ten times a second.
const NUMERIC = new Intl.Collator('en', { numeric: true });
const PLAIN = new Intl.Collator();

export class Live {
  readonly buffer: FlowBuffer;
  private seq = 0;
  private pending: FlowMessage[] = [];
  /** The scheduler's last decision records (the Scheduling view). */
  readonly decisions = new DecisionStore(200);
  private pendingDecisions: SchedulingDecisionRecord[] = [];
  private readonly listeners = new Set<LiveListener>();
  private readonly nodes = new Map<string, NodeView>();
  private readonly pods = new Map<string, PodView>();
  private readonly components = new Map<string, ComponentView>();
  private readonly deployments = new Map<string, DeploymentView>();
  private factory: SharedInformerFactory | undefined;
  private subs: Subscription[] = [];
  private announcement?: Announcement;
  private flushTimer: NodeJS.Timeout | undefined;
  private mapDirty = false;
  private readonly now: () => number;

  constructor(private readonly opts: LiveOptions) {
    this.buffer = new FlowBuffer(opts.bufferSize);
    this.now = opts.now ?? Date.now;
    this.components.set('apiserver', { name: 'apiserver', state: opts.clientset ? 'unknown' : 'down', detail: opts.clientset ? 'connecting' : 'no kubeconfig' });
    this.components.set('nats', { name: 'nats', state: opts.nats ? 'up' : 'down', ...(opts.nats ? {} : { detail: 'no --nats-url' }) });
    for (const c of ['scheduler', 'controller-manager']) this.components.set(c, { name: c, state: 'unknown', detail: 'no leader lease seen' });
  }

  subscribe(l: LiveListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  async start(): Promise<void> {
    this.flushTimer = setInterval(() => this.flush(), this.opts.flushMs ?? 100);
    if (this.opts.nats) this.startNats(this.opts.nats);
    if (this.opts.clientset) await this.startWatches(this.opts.clientset);
  }

  async stop(): Promise<void> {
    if (this.flushTimer) clearInterval(this.flushTimer);
    for (const s of this.subs) s.unsubscribe();
    this.announcement?.stop();
    await this.factory?.shutdown();
  }

  /** Adds a message (the actions record theirs here). */
  record(m: Unsequenced): FlowMessage {
    const full = { ...m, seq: ++this.seq };
    this.buffer.push(full);
    this.pending.push(full);
    return full;
  }

  map(): MapState {
    const byName = (a: { name: string }, b: { name: string }) => NUMERIC.compare(a.name, b.name);
    return {
      nodes: [...this.nodes.values()].sort((a, b) => Number(b.controlPlane) - Number(a.controlPlane) || byName(a, b)),
      deployments: [...this.deployments.values()].sort((a, b) => PLAIN.compare(a.namespace, b.namespace) || byName(a, b)),
      pods: [...this.pods.values()].sort((a, b) => PLAIN.compare(a.namespace, b.namespace) || byName(a, b)),
      components: [...this.components.values()],
      nodeMonitorGracePeriodMs: this.opts.nodeMonitorGracePeriodMs,
    };
  }

  private flush(): void {
    // Without a page open the map is not built (a new page gets map() in its snapshot); it stays dirty until one is.
    if (this.mapDirty && this.listeners.size) {
      this.mapDirty = false;
      const m = this.map();
      for (const l of this.listeners) l.map(m);
    }
    if (this.pendingDecisions.length) {
      const batch = this.pendingDecisions;
      this.pendingDecisions = [];
      for (const l of this.listeners) l.sched?.(batch);
    }
    if (this.pending.length) {
      const batch = this.pending;
      this.pending = [];
      for (const l of this.listeners) l.flow(batch);
    }
  }

  private changed(): void {
    this.mapDirty = true;
  }

  private startNats(nc: NatsConnection): void {
    const cri = nc.subscribe(CRI_SUBJECT, {
      callback: (err, msg) => {
        if (err) return;
        const m = criMessage(msg.string(), this.now());
        if (!m) return;
        this.record(m);
        const n = m.node ? this.nodes.get(m.node) : undefined;
        if (n) n.lastCri = this.now();
      },
    });
    // The apiserver's request records, where the server publishes them and this identity may read them.
    const api = nc.subscribe(API_SUBJECT, {
      callback: (err, msg) => {
        if (err) {
          this.opts.note?.(`no API request records: subscribing to ${API_SUBJECT} failed: ${err.message}`);
          return;
        }
        // kubelab.api.watch.<resource>: the watch deliveries to the components' informers, summed per 100 ms.
        if (msg.subject.startsWith(WATCH_SUBJECT_PREFIX)) {
          for (const m of watchDeliveryMessages(msg.string(), this.now())) this.record(m);
          return;
        }
        const m = apiMessage(msg.subject, msg.string(), this.now());
        if (m) this.record(m);
      },
    });
    // The scheduler's decision records: the Scheduling view, and one message each in the flow.
    const sched = nc.subscribe(SCHED_SUBJECT_ALL, {
      callback: (err, msg) => {
        if (err) {
          this.opts.note?.(`no scheduling decisions: subscribing to ${SCHED_SUBJECT_ALL} failed: ${err.message}`);
          return;
        }
        this.decision(msg.string());
      },
    });
    // kube-proxy's rules syncs, one record per syncProxyRules of each node.
    const proxy = nc.subscribe(PROXY_SUBJECT, {
      callback: (err, msg) => {
        if (err) {
          this.opts.note?.(`no kube-proxy sync records: subscribing to ${PROXY_SUBJECT} failed: ${err.message}`);
          return;
        }
        const m = proxyMessage(msg.string(), this.now());
        if (m) this.record(m);
      },
    });
    this.subs.push(cri, api, sched, proxy);
    // The apiserver and the scheduler record only while someone reads (@kubelab/nats listeners.ts): say so.
    this.announcement = announceListening(nc, ['api', 'sched']);
    void (async () => {
      for await (const s of nc.status()) {
        const c = this.components.get('nats')!;
        if (s.type === 'disconnect') this.components.set('nats', { ...c, state: 'down', detail: 'disconnected' });
        else if (s.type === 'reconnect') this.components.set('nats', { name: 'nats', state: 'up' });
        else continue;
        this.changed();
      }
    })().catch(() => {});
  }

  /** A decision record's body: kept for the Scheduling view and recorded in the flow; ignored when it is no record. */
  decision(data: string): SchedulingDecisionRecord | undefined {
    const rec = decodeSchedulingDecisionRecord(data);
    if (!rec) return undefined;
    this.decisions.push(rec);
    this.pendingDecisions.push(rec);
    this.record(decisionMessage(rec, this.now()));
    return rec;
  }

  private async startWatches(cs: Clientset): Promise<void> {
    const f = new SharedInformerFactory(cs);
    this.factory = f;
    const nodes = f.core.nodes();
    const pods = f.core.pods();
    const leases = f.coordination.leases();
    const events = f.core.events();
    const deployments = f.apps.deployments();
    const setDeployment = (d: Deployment) => {
      const ns = d.metadata?.namespace ?? 'default';
      this.deployments.set(`${ns}/${d.metadata?.name}`, { namespace: ns, name: d.metadata?.name ?? '', replicas: d.spec?.replicas ?? 1, readyReplicas: d.status?.readyReplicas ?? 0 });
      this.changed();
    };
    deployments.addEventHandler({
      onAdd: (d) => setDeployment(d as Deployment),
      onUpdate: (_o, d) => setDeployment(d as Deployment),
      onDelete: (d) => {
        this.deployments.delete(`${(d as Deployment).metadata?.namespace}/${(d as Deployment).metadata?.name}`);
        this.changed();
      },
    });
    let synced = false;
    nodes.addEventHandler({
      onAdd: (n) => this.upsertNode(n as Node, synced ? 'ADDED' : undefined),
      onUpdate: (_o, n) => this.upsertNode(n as Node, 'MODIFIED'),
      onDelete: (n) => {
        const name = (n as Node).metadata?.name;
        if (name) this.nodes.delete(name);
        this.record(watchMessage('DELETED', 'Node', n as KubeObject, undefined, this.now()));
        this.changed();
      },
    });
    pods.addEventHandler({
      onAdd: (p) => this.upsertPod(p as Pod, synced ? 'ADDED' : undefined),
      onUpdate: (_o, p) => this.upsertPod(p as Pod, 'MODIFIED'),
      onDelete: (p) => {
        const o = p as Pod;
        this.pods.delete(`${o.metadata?.namespace}/${o.metadata?.name}`);
        this.record(watchMessage('DELETED', 'Pod', o, undefined, this.now()));
        this.changed();
      },
    });
    leases.addEventHandler({ onAdd: (l) => this.lease(l as Lease), onUpdate: (_o, l) => this.lease(l as Lease) });
    events.addEventHandler({
      // Events older than the dashboard go in too (the story of a pod started before it), in their place by time.
      onAdd: (e) => void this.record(eventMessage(e as Event, this.now())),
      onUpdate: (o, e) => {
        if ((o as Event).count !== (e as Event).count || (o as Event).lastTimestamp !== (e as Event).lastTimestamp) this.record(eventMessage(e as Event, this.now()));
      },
    });
    f.start();
    await Promise.all([nodes.whenSynced(), pods.whenSynced(), leases.whenSynced(), events.whenSynced(), deployments.whenSynced()]);
    synced = true;
    this.components.set('apiserver', { name: 'apiserver', state: 'up', detail: 'watching' });
    this.changed();
  }

  private upsertNode(n: Node, delivered: 'ADDED' | 'MODIFIED' | undefined): void {
    const name = n.metadata?.name;
    if (!name) return;
    const prev = this.nodes.get(name);
    const ready = n.status?.conditions?.find((c) => c.type === 'Ready');
    const view: NodeView = {
      ...(prev?.heartbeat !== undefined ? { heartbeat: prev.heartbeat, leaseDurationSeconds: prev.leaseDurationSeconds } : {}),
      ...(prev?.lastCri !== undefined ? { lastCri: prev.lastCri } : {}),
      name,
      ready: ready?.status ?? 'Unknown',
      ...(ready?.reason ? { reason: ready.reason } : {}),
      taints: (n.spec?.taints ?? []).map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`),
      taintDetails: (n.spec?.taints ?? []).map((t) => ({
        key: t.key,
        ...(t.value ? { value: t.value } : {}),
        effect: t.effect,
        ...(t.timeAdded && !Number.isNaN(Date.parse(t.timeAdded)) ? { timeAdded: Date.parse(t.timeAdded) } : {}),
      })),
      problems: (n.status?.conditions ?? []).filter((c) => c.type !== 'Ready' && c.status === 'True').map((c) => (c.reason ? `${c.type} (${c.reason})` : c.type)),
      controlPlane: n.metadata?.labels?.['node-role.kubernetes.io/control-plane'] !== undefined,
      unschedulable: !!n.spec?.unschedulable,
    };
    this.nodes.set(name, view);
    if (delivered && (prev?.ready !== view.ready || prev?.taints.join() !== view.taints.join() || prev?.problems?.join() !== view.problems?.join())) {
      const problems = view.problems?.length ? ` ${view.problems.map((c) => `${c.split(' ')[0]}=True`).join(' ')}` : '';
      this.record(watchMessage(delivered, 'Node', n, `Ready=${view.ready}${problems}${view.taints.length ? ` taints=${view.taints.join(',')}` : ''}`, this.now()));
    }
    this.changed();
  }

  private upsertPod(p: Pod, delivered: 'ADDED' | 'MODIFIED' | undefined): void {
    const ns = p.metadata?.namespace ?? 'default';
    const name = p.metadata?.name;
    if (!name) return;
    const key = `${ns}/${name}`;
    const prev = this.pods.get(key);
    const owner = p.metadata?.ownerReferences?.find((o) => o.controller);
    const view: PodView = {
      namespace: ns,
      name,
      ...(p.spec?.nodeName ? { node: p.spec.nodeName } : {}),
      phase: p.status?.phase ?? 'Pending',
      ready: !!p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      deleting: !!p.metadata?.deletionTimestamp,
      ...(owner ? { owner: `${owner.kind}/${owner.name}` } : {}),
      tolerations: (p.spec?.tolerations ?? [])
        .filter((t) => !t.effect || t.effect === 'NoExecute')
        .map((t) => ({
          ...(t.key ? { key: t.key } : {}),
          ...(t.operator ? { operator: t.operator } : {}),
          ...(t.value ? { value: t.value } : {}),
          ...(t.effect ? { effect: t.effect } : {}),
          ...(typeof t.tolerationSeconds === 'number' ? { tolerationSeconds: t.tolerationSeconds } : {}),
        })),
    };
    this.pods.set(key, view);
    if (delivered && (!prev || prev.phase !== view.phase || prev.node !== view.node || prev.ready !== view.ready || prev.deleting !== view.deleting)) {
      const what = [view.node && prev?.node !== view.node ? `nodeName=${view.node}` : '', `phase=${view.phase}`, view.ready ? 'Ready' : '', view.deleting ? 'deleting' : ''].filter(Boolean).join(' ');
      this.record(watchMessage(delivered, 'Pod', p, what, this.now()));
    }
    this.changed();
  }

  private lease(l: Lease): void {
    const ns = l.metadata?.namespace;
    const name = l.metadata?.name ?? '';
    const renew = l.spec?.renewTime ? Date.parse(l.spec.renewTime) : NaN;
    if (ns === 'kube-node-lease') {
      const n = this.nodes.get(name);
      if (!n || Number.isNaN(renew)) return;
      n.heartbeat = renew;
      n.leaseDurationSeconds = l.spec?.leaseDurationSeconds ?? 40;
      this.changed();
    } else if (ns === 'kube-system' && LEADER_LEASES[name]) {
      const holder = l.spec?.holderIdentity ?? '';
      this.components.set(LEADER_LEASES[name]!, {
        name: LEADER_LEASES[name]!,
        state: holder ? 'up' : 'unknown',
        detail: holder ? `leader ${holder}` : 'no leader',
        ...(Number.isNaN(renew) ? {} : { heartbeat: renew, leaseDurationSeconds: l.spec?.leaseDurationSeconds ?? 15 }),
      });
      this.changed();
    }
  }
}
