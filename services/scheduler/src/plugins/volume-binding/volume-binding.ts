// VolumeBinding (pkg/scheduler/framework/plugins/volumebinding): a pod's
// claims decide where it may run. PreFilter sorts them: missing or deleted
// claims and unbound Immediate ones reject the pod; bound ones bring their
// volume's node affinity; unbound WaitForFirstConsumer ones must be bound on
// the chosen node. Filter checks each node: a bound local volume pins the
// pod to its node; an unbound claim needs a matching volume there or a class
// that can provision. PreBind writes the decision (a volume's claimRef, or
// the claim's selected-node annotation for the provisioner) and waits for
// the PV controller to finish the binding before the pod is bound.

import { ANN_BOUND_BY_CONTROLLER, ANN_SELECTED_NODE, claimClass, findMatchingVolume, type Node, type PersistentVolume, type PersistentVolumeClaim, type Pod, type StorageClass } from '@kubelab/api';
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType, event, Events } from '../../framework/events.js';
import type { Handle } from '../../framework/handle.js';
import type { ClusterEventWithHint, EnqueueExtensions, FilterPlugin, PreBindPlugin, PreFilterPlugin, ReservePlugin } from '../../framework/interface.js';
import { Names } from '../../framework/names.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Code, newStatus, type Status } from '../../framework/status.js';

export const ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const ERR_REASON_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
export const ERR_REASON_PV_NOT_EXIST = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';
export const ERR_UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';
/** The class of statically provisioned local volumes: nothing provisions it. */
export const NO_PROVISIONER = 'kubernetes.io/no-provisioner';
/** Upstream's bindTimeoutSeconds default. */
export const BIND_TIMEOUT_MS = 600_000;

const STATE_KEY = `PreFilter${Names.VolumeBinding}`;

/** The pod's claims, sorted by what they need (upstream podVolumeClaims). */
export interface PodClaims {
  bound: { claim: PersistentVolumeClaim; volume: PersistentVolume | undefined }[];
  /** Unbound WaitForFirstConsumer claims, with their class. */
  toBind: { claim: PersistentVolumeClaim; cls: StorageClass | undefined }[];
}

/** A node's answer for the claims to bind: static volumes to take, claims to provision. */
export interface NodeDecision {
  bindings: { claim: PersistentVolumeClaim; volume: PersistentVolume }[];
  provisions: PersistentVolumeClaim[];
}

interface VolumeBindingState {
  claims: PodClaims;
  decisions: Map<string, NodeDecision>;
  chosen?: NodeDecision;
}

/** The claims a pod names, or the PreFilter rejection. */
export function podClaims(
  pod: Pod,
  claim: (ns: string, name: string) => PersistentVolumeClaim | undefined,
  volume: (name: string) => PersistentVolume | undefined,
  storageClass: (name: string) => StorageClass | undefined,
): PodClaims | Status {
  const out: PodClaims = { bound: [], toBind: [] };
  const ns = pod.metadata.namespace ?? 'default';
  for (const v of pod.spec?.volumes ?? []) {
    const name = v.persistentVolumeClaim?.claimName;
    if (!name) continue;
    const c = claim(ns, name);
    if (!c) return newStatus(Code.UnschedulableAndUnresolvable, `persistentvolumeclaim "${name}" not found`);
    if (c.metadata.deletionTimestamp) return newStatus(Code.UnschedulableAndUnresolvable, `persistentvolumeclaim "${name}" is being deleted`);
    if (c.spec?.volumeName) {
      out.bound.push({ claim: c, volume: volume(c.spec.volumeName) });
      continue;
    }
    const cls = claimClass(c) ? storageClass(claimClass(c)) : undefined;
    if (cls?.volumeBindingMode !== 'WaitForFirstConsumer') return newStatus(Code.UnschedulableAndUnresolvable, ERR_UNBOUND_IMMEDIATE);
    out.toBind.push({ claim: c, cls });
  }
  return out;
}

/** Whether a class may provision on the node: a real provisioner, and the node within allowedTopologies. */
function canProvision(cls: StorageClass | undefined, node: Node): boolean {
  if (!cls || !cls.provisioner || cls.provisioner === NO_PROVISIONER) return false;
  const terms = cls.allowedTopologies ?? [];
  if (!terms.length) return true;
  const labels = node.metadata.labels ?? {};
  return terms.some((t) => (t.matchLabelExpressions ?? []).every((r) => r.values.includes(labels[r.key] ?? '')));
}

/** Filter for one node (upstream FindPodVolumes): the failure reasons, or the node's decision. */
export function findPodVolumes(claims: PodClaims, node: Node, volumes: readonly PersistentVolume[]): { reasons: string[] } | { decision: NodeDecision } {
  const reasons = new Set<string>();
  for (const b of claims.bound) {
    if (!b.volume) reasons.add(ERR_REASON_PV_NOT_EXIST);
    else if (b.volume.spec?.nodeAffinity?.required && !findMatchingVolume(b.claim, [b.volume], node)) {
      // A bound volume matches its own claim as pre-bound: only its node affinity can fail here.
      reasons.add(ERR_REASON_NODE_CONFLICT);
    }
  }
  const decision: NodeDecision = { bindings: [], provisions: [] };
  const taken = new Set<string>();
  for (const t of claims.toBind) {
    const v = findMatchingVolume(t.claim, volumes, node, taken, true);
    if (v) {
      taken.add(v.metadata.name ?? '');
      decision.bindings.push({ claim: t.claim, volume: v });
    } else if (canProvision(t.cls, node)) decision.provisions.push(t.claim);
    else reasons.add(ERR_REASON_BIND_CONFLICT);
  }
  return reasons.size ? { reasons: [...reasons] } : { decision };
}

const claimKey = (c: PersistentVolumeClaim) => `${c.metadata.namespace}/${c.metadata.name}`;

export class VolumeBinding implements PreFilterPlugin, FilterPlugin, ReservePlugin, PreBindPlugin, EnqueueExtensions {
  readonly name = Names.VolumeBinding;

  constructor(private readonly handle: Handle) {}

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: Events.PvcAdd },
      { event: Events.PvcUpdate },
      { event: Events.PvAdd },
      { event: Events.PvUpdate },
      { event: Events.StorageClassAdd },
      { event: Events.NodeAdd },
      { event: event('Node', ActionType.UpdateNodeLabel, 'NodeLabelChange') },
    ];
  }

  preFilter(state: CycleState, pod: Pod): { status?: Status } | undefined {
    if (!(pod.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim)) return { status: newStatus(Code.Skip) };
    const l = this.handle.volumes;
    if (!l) return { status: newStatus(Code.Error, 'no storage listers') };
    const byName = new Map(l.volumes().map((v) => [v.metadata.name, v]));
    const claims = podClaims(
      pod,
      (ns, n) => l.claim(ns, n),
      (n) => byName.get(n),
      (n) => l.storageClass(n),
    );
    if ('code' in claims) return { status: claims };
    state.write(STATE_KEY, { claims, decisions: new Map() } satisfies VolumeBindingState);
    return undefined;
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const s = state.read<VolumeBindingState>(STATE_KEY);
    const node = nodeInfo.node;
    if (!s || !node) return undefined;
    const r = findPodVolumes(s.claims, node, s.claims.toBind.length ? (this.handle.volumes?.volumes() ?? []) : []);
    if ('reasons' in r) return newStatus(Code.UnschedulableAndUnresolvable, ...r.reasons);
    s.decisions.set(node.metadata.name ?? '', r.decision);
    return undefined;
  }

  reserve(state: CycleState, _pod: Pod, nodeName: string): Status | undefined {
    const s = state.read<VolumeBindingState>(STATE_KEY);
    if (s) s.chosen = s.decisions.get(nodeName) ?? { bindings: [], provisions: [] };
    return undefined;
  }

  unreserve(state: CycleState): void {
    const s = state.read<VolumeBindingState>(STATE_KEY);
    if (s) delete s.chosen;
  }

  /** BindPodVolumes: write the decisions, then wait until every claim of the pod is bound. */
  async preBind(state: CycleState, _pod: Pod, nodeName: string): Promise<Status | undefined> {
    const s = state.read<VolumeBindingState>(STATE_KEY);
    if (!s?.chosen || (!s.chosen.bindings.length && !s.chosen.provisions.length)) return undefined;
    const { actions, volumes } = this.handle;
    if (!actions.updateClaim || !actions.updateVolume || !volumes) return newStatus(Code.Error, 'no API client to bind volumes with');
    for (const { claim, volume } of s.chosen.bindings) {
      const copy = structuredClone(volume);
      copy.spec = {
        ...copy.spec,
        claimRef: {
          kind: 'PersistentVolumeClaim',
          apiVersion: 'v1',
          namespace: claim.metadata.namespace!,
          name: claim.metadata.name!,
          uid: claim.metadata.uid!,
          resourceVersion: claim.metadata.resourceVersion!,
        },
      };
      copy.metadata.annotations = { ...(copy.metadata.annotations ?? {}), [ANN_BOUND_BY_CONTROLLER]: 'yes' };
      await actions.updateVolume(copy);
    }
    for (const claim of s.chosen.provisions) {
      const current = volumes.claim(claim.metadata.namespace ?? '', claim.metadata.name ?? '') ?? claim;
      if (current.metadata.annotations?.[ANN_SELECTED_NODE] === nodeName) continue;
      const copy = structuredClone(current);
      copy.metadata.annotations = { ...(copy.metadata.annotations ?? {}), [ANN_SELECTED_NODE]: nodeName };
      await actions.updateClaim(copy);
    }
    const keys = [...s.chosen.bindings.map((b) => claimKey(b.claim)), ...s.chosen.provisions.map(claimKey)];
    await volumes.waitForBound(keys, BIND_TIMEOUT_MS);
    return undefined;
  }
}

export const newVolumeBinding = (_args: unknown, handle: Handle): VolumeBinding => new VolumeBinding(handle);
