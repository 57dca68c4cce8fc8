// Registers this kubelet's Node and keeps its status current (upstream
// pkg/kubelet/kubelet_node_status.go, with updatePodCIDR from
// kubelet_network.go): status is computed every --node-status-update-frequency
// and posted when it changed or the report frequency passed, at once when
// Ready flips; condition transitions become Node events.

import { isAlreadyExists, type Node, type NodeStatus, type ObjectReference, type Taint } from '@kubelab/api';
import type { Clientset, Clock } from '@kubelab/client';
import { kRef, type Logger } from '@kubelab/component-base';
import { Reason, type Recorder } from '../events.js';
import type { Image, RuntimeService } from '../kuberuntime/cri.js';
import type { RuntimeState } from '../runtime-state.js';
import type { ImageList } from '../images/image-list.js';
import { nodeStatusPatch } from './patch.js';
import { buildNodeStatus, goArch, initialNode, mergeConditions, nodeStatusChanged, readyCondition, runtimeErrors, type MachineInfo, type RuntimeHealthInput } from './setters.js';

export interface NodeStatusConfig {
  nodeName: string;
  nodeIP: string;
  nodeLabels: Record<string, string>;
  registerWithTaints?: Taint[];
  kubeletPort: number;
  nodeStatusReportFrequencyMs: number;
}

export interface NodeStatusControllerOptions {
  config: NodeStatusConfig;
  cs: Clientset;
  rt: Pick<RuntimeService, 'updateRuntimeConfig'>;
  /** The node's images as the image manager last listed them (upstream GetImageList). */
  images: Pick<ImageList, 'get'>;
  runtime: RuntimeState;
  machine: MachineInfo;
  /** The PLEG's health (upstream: a node whose PLEG stalled is not ready). */
  plegHealth: () => { ok: boolean; message: string };
  /** The eviction manager's pressure conditions. */
  pressure: () => { memory?: boolean; disk?: boolean; pid?: boolean };
  /** The Node exists (registered or adopted): the node lease may start. */
  onRegistered: () => void;
  recorder: Recorder;
  clock: Clock;
  log: Logger;
}

/** Upstream reports at most 50 images, largest first. */
const MAX_NODE_IMAGES = 50;
const MAX_STATUS_UPDATE_ATTEMPTS = 5;

/** The event reasons of a node condition: [when True, when False] (upstream recordNodeStatusEvent). */
const CONDITION_EVENTS: Record<string, [string, string]> = {
  MemoryPressure: ['NodeHasInsufficientMemory', 'NodeHasSufficientMemory'],
  DiskPressure: ['NodeHasDiskPressure', 'NodeHasNoDiskPressure'],
  PIDPressure: ['NodeHasInsufficientPID', 'NodeHasSufficientPID'],
  Ready: ['NodeReady', 'NodeNotReady'],
};

/** The event reasons of the conditions that changed between two statuses (and, but for Ready, of those never reported). */
export function conditionEventReasons(prev: NodeStatus | undefined, next: NodeStatus): string[] {
  const out: string[] = [];
  for (const c of next.conditions ?? []) {
    const before = prev?.conditions?.find((p) => p.type === c.type);
    if (before?.status === c.status && before.lastHeartbeatTime) continue;
    // Upstream's ReadyCondition appends a first Ready condition quietly and compares status only; only a change is an event (the pressure setters start from Unknown, so they report).
    if (c.type === 'Ready' && (!before || before.status === c.status)) continue;
    const pair = CONDITION_EVENTS[c.type];
    if (pair) out.push(c.status === 'True' ? pair[0] : pair[1]);
  }
  return out;
}

/**
 * Whether the apiserver's copy of this kubelet's own conditions differs from
 * what the kubelet would post (status, reason or message): the kubelet's last
 * written status is not enough, since the node lifecycle controller rewrites
 * them to Unknown when the kubelet stops posting (upstream compares against
 * the Node it fetched, nodeStatusHasChanged).
 */
export function ownConditionsDiffer(server: NodeStatus | undefined, next: NodeStatus): boolean {
  if (!server) return false;
  return (next.conditions ?? []).some((c) => {
    const held = server.conditions?.find((x) => x.type === c.type);
    return !held || held.status !== c.status || held.reason !== c.reason || held.message !== c.message;
  });
}

const imagesOf = (list: Image[]) =>
  [...list]
    .sort((a, b) => b.size - a.size)
    .slice(0, MAX_NODE_IMAGES)
    .map((i) => ({ names: [...i.repoDigests, ...i.repoTags], sizeBytes: i.size }));

export class NodeStatusController {
  /** The Node as the apiserver last returned or the informer last delivered it. */
  node: Node | undefined;
  /** The status this kubelet last posted (or found at registration). */
  lastStatus: NodeStatus | undefined;
  private lastReport = 0;
  private lastReady: string | undefined;
  private appliedPodCIDR = '';
  private stopped = false;
  /** The sync in flight (or the last one), which the next waits for. */
  private syncing: Promise<void> = Promise.resolve();

  constructor(private readonly o: NodeStatusControllerOptions) {}

  stop(): void {
    this.stopped = true;
  }

  nodeRef(): ObjectReference {
    const name = this.o.config.nodeName;
    return { kind: 'Node', name, uid: name, apiVersion: '', namespace: '' };
  }

  /** The Node from the informer; a new pod CIDR goes to the runtime (upstream updatePodCIDR). */
  observe(n: Node): void {
    // An event older than the Node this kubelet just wrote (the informer lags its own update's answer) changes nothing.
    const have = Number(this.node?.metadata.resourceVersion);
    const got = Number(n.metadata.resourceVersion);
    if (this.node?.metadata.uid === n.metadata.uid && Number.isFinite(have) && Number.isFinite(got) && got < have) return;
    this.node = n;
    const cidr = n.spec?.podCIDR ?? n.spec?.podCIDRs?.[0] ?? '';
    if (!cidr || cidr === this.appliedPodCIDR) return;
    this.o.rt.updateRuntimeConfig(cidr).then(
      () => {
        this.appliedPodCIDR = cidr;
        this.o.log.info('Updating runtime config through cri with podcidr', { CIDR: cidr });
        // The runtime's network may be ready now: look at once rather than in 5 s.
        void this.runtimeUp();
      },
      (err) => this.o.log.warn('Failed to update runtime config with pod CIDR', { CIDR: cidr, err }),
    );
  }

  /** Asks the runtime how it is (every 5 s); a Ready flip is reported at once, not at the next period. */
  async runtimeUp(): Promise<void> {
    await this.o.runtime.update();
    const ready = readyCondition(runtimeErrors(this.runtimeHealth())).status;
    if (this.lastReady !== undefined && this.lastReady !== ready) void this.syncNodeStatus().catch(() => {});
    this.lastReady = ready;
  }

  /** What the node's readiness is made of: the runtime's last status check and the PLEG's health. */
  runtimeHealth(): RuntimeHealthInput {
    const pleg = this.o.plegHealth();
    return this.o.runtime.health(pleg.ok ? undefined : pleg.message);
  }

  /** Registers the Node, retrying with back-off (100 ms doubling to 7 s) until it succeeds or the kubelet stops. */
  async registerWithRetry(): Promise<void> {
    let delay = 100;
    while (!this.stopped) {
      try {
        await this.registerNode();
        return;
      } catch (err) {
        this.o.log.warn('Unable to register node with API server', { node: this.o.config.nodeName, err });
        await this.o.clock.sleep(delay);
        delay = Math.min(delay * 2, 7000);
      }
    }
  }

  /** Creates the Node, or adopts an existing one (upstream registerWithAPIServer). */
  async registerNode(): Promise<void> {
    const c = this.o.config;
    const nodes = this.o.cs.core.nodes();
    const desired = initialNode(c.nodeName, c.nodeLabels, 'linux', goArch(process.arch), c.registerWithTaints);
    // Upstream's initialNode runs every status setter before the create: the Node arrives with its capacity,
    // allocatable and conditions, so the scheduler never sees it without room (no "Insufficient cpu" for its DaemonSet pods).
    const now = this.o.clock.now();
    desired.status = this.computeStatus(await this.reportedImages(), undefined, now);
    // Its setters record their events as they fill a fresh Node, whether the create then succeeds or finds one there.
    this.recordConditionEvents(undefined, desired.status);
    let node: Node;
    try {
      node = await nodes.create(desired);
      this.o.log.info('Successfully registered node', { node: c.nodeName });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      const existing = await nodes.get(c.nodeName);
      this.o.log.info('Node was previously registered', { node: kRef('', c.nodeName) });
      // Reconciled into the Node it read and sent as a PATCH of nodes/status when anything changed (upstream tryRegisterWithAPIServer).
      const reconciled: Node = {
        ...existing,
        metadata: {
          ...existing.metadata,
          labels: { ...(existing.metadata.labels ?? {}), ...desired.metadata.labels },
          annotations: { ...desired.metadata.annotations, ...(existing.metadata.annotations ?? {}) },
        },
      };
      const patch = nodeStatusPatch(existing, reconciled);
      node = Object.keys(patch).length > 0 ? await nodes.patch(c.nodeName, 'strategic', patch, { subresource: 'status' }) : existing;
    }
    this.node = node;
    this.lastStatus = node.status;
    if (this.stopped) return;
    this.o.onRegistered();
    await this.syncNodeStatus(true);
    this.o.recorder.event(this.nodeRef(), 'Normal', Reason.NodeAllocatableEnforced, 'Updated Node Allocatable limit across pods');
  }

  /**
   * One sync at a time (upstream's syncNodeStatusMux): a sync that computed its status before the runtime's
   * network became ready must not post that older status after a later sync posted Ready.
   */
  syncNodeStatus(force = false): Promise<void> {
    const run = this.syncing.then(() => this.syncNodeStatusNow(force));
    this.syncing = run.catch(() => {});
    return run;
  }

  /** Computes the node status; posts it when it changed, the report frequency passed, or `force`. */
  private async syncNodeStatusNow(force: boolean): Promise<void> {
    if (!this.node?.metadata.uid) return;
    const c = this.o.config;
    const images = await this.reportedImages();
    // The Node as the apiserver holds it now, read before every update as upstream does (from the apiserver's cache):
    // after an outage the informer may not yet have delivered what others wrote meanwhile.
    this.node = await this.o.cs.core.nodes().get(c.nodeName);
    const now = this.o.clock.now();
    // The status the apiserver holds (upstream builds on the Node it fetched): another writer may have changed
    // this kubelet's conditions there (the node lifecycle controller's Unknown while the kubelet was cut off).
    const held = this.node?.status;
    // Only where the apiserver's copy diverged from what this kubelet last wrote does it become the base (transition times, events).
    const server = this.lastStatus && held && ownConditionsDiffer(held, this.lastStatus) ? held : undefined;
    const next = this.computeStatus(images, server ?? this.lastStatus, now);
    if (!force && !nodeStatusChanged(this.lastStatus, next) && !server && now - this.lastReport < c.nodeStatusReportFrequencyMs) return;
    const nodes = this.o.cs.core.nodes();
    // Upstream updateNodeStatus: up to five tries, each a PATCH from the Node it read (the first read is the one above).
    for (let attempt = 0; attempt < MAX_STATUS_UPDATE_ATTEMPTS; attempt++) {
      try {
        const original = attempt === 0 && this.node ? this.node : await nodes.get(c.nodeName);
        const modified: Node = { ...original, status: { ...original.status, ...next, conditions: mergeConditions(original.status?.conditions, next.conditions ?? []) } };
        this.node = await nodes.patch(c.nodeName, 'strategic', nodeStatusPatch(original, modified), { subresource: 'status' });
        break;
      } catch (err) {
        if (attempt === MAX_STATUS_UPDATE_ATTEMPTS - 1) throw err;
        this.o.log.error('Error updating node status, will retry', { err });
      }
    }
    const ready = next.conditions?.find((x) => x.type === 'Ready');
    const before = server ?? this.lastStatus;
    const wasReady = before?.conditions?.find((x) => x.type === 'Ready');
    // Upstream setters.ReadyCondition's line when Ready leaves True.
    if (ready && ready.status !== 'True' && wasReady && wasReady.status !== ready.status) this.o.log.info('Node became not ready', { node: kRef('', c.nodeName), condition: ready });
    this.recordConditionEvents(before, next);
    this.lastStatus = next;
    this.lastReport = now;
  }

  /** The runtime's images as the Node lists them; the last reported list when the runtime does not answer. */
  private async reportedImages(): Promise<{ names: string[]; sizeBytes: number }[]> {
    try {
      return imagesOf(await this.o.images.get());
    } catch {
      return this.lastStatus?.images?.map((i) => ({ names: i.names ?? [], sizeBytes: i.sizeBytes ?? 0 })) ?? [];
    }
  }

  /** The status every setter computes now on top of `old` (upstream setNodeStatus). */
  private computeStatus(images: { names: string[]; sizeBytes: number }[], old: NodeStatus | undefined, now: number): NodeStatus {
    const c = this.o.config;
    return buildNodeStatus({
      machine: this.o.machine,
      health: this.runtimeHealth(),
      nodeIP: c.nodeIP,
      hostname: c.nodeName,
      kubeletPort: c.kubeletPort,
      containerRuntimeVersion: this.o.runtime.versionText,
      images,
      pressure: this.o.pressure(),
      ...(old ? { old } : {}),
      now,
    });
  }

  /** A Node event per condition that changed (upstream recordNodeStatusEvent, called from the condition setters). */
  private recordConditionEvents(before: NodeStatus | undefined, next: NodeStatus): void {
    const name = this.o.config.nodeName;
    for (const reason of conditionEventReasons(before, next)) {
      this.o.log.v(2).info('Recording event message for node', { node: kRef('', name), event: reason });
      this.o.recorder.event(this.nodeRef(), 'Normal', reason, `Node ${name} status is now: ${reason}`);
    }
  }
}
