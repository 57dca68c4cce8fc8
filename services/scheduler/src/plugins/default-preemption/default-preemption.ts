// DefaultPreemption (PostFilter): when no node fits, look for a node where
// deleting lower-priority pods would make room; otherwise explain, per node,
// why preemption cannot help — the "preemption: 0/N nodes are available: ..."
// half of the FailedScheduling message.

import { labelSelectorAsSelector, type Pod, type PodDisruptionBudget } from '@kubelab/api';
import type { CycleState } from '../../framework/cycle-state.js';
import { fitErrorMessage, newDiagnosis } from '../../framework/fit-error.js';
import type { Handle } from '../../framework/handle.js';
import type { NodeToStatus, PostFilterPlugin, PostFilterResult } from '../../framework/interface.js';
import { Names } from '../../framework/names.js';
import type { NodeInfo, PodInfo } from '../../framework/node-info.js';
import { Code, isSuccess, newStatus, Status } from '../../framework/status.js';
import { podPriority } from '../queue-sort/priority-sort.js';

export const MSG_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const MSG_NO_VICTIMS = 'No preemption victims found for incoming pod';
export const MSG_POLICY_NEVER = 'not eligible due to preemptionPolicy=Never.';
export const MSG_TERMINATING = 'not eligible due to a terminating pod on the nominated node.';

/** Upstream defaults for how many candidate nodes a dry run collects. */
const MIN_CANDIDATE_NODES_PERCENTAGE = 10;
const MIN_CANDIDATE_NODES_ABSOLUTE = 100;

export interface Candidate {
  node: string;
  victims: PodInfo[];
  /** Victims whose eviction a PodDisruptionBudget does not allow. */
  numPDBViolations: number;
}

function startTime(p: PodInfo): number {
  const s = p.pod.status?.startTime ?? p.pod.metadata.creationTimestamp;
  return s ? Date.parse(s) : Number.MAX_SAFE_INTEGER;
}

/** MoreImportantPod: higher priority, then earlier start. */
function moreImportant(a: PodInfo, b: PodInfo): number {
  const d = podPriority(b.pod) - podPriority(a.pod);
  return d !== 0 ? d : startTime(a) - startTime(b);
}

/** Upstream pickOneNodeForPreemption: fewest PDB violations, lowest top victim priority, lowest priority sum, fewest victims. */
export function pickOneNode(candidates: readonly Candidate[]): Candidate | undefined {
  const key = (c: Candidate): number[] => {
    const prios = c.victims.map((v) => podPriority(v.pod));
    return [c.numPDBViolations, Math.max(...prios), prios.reduce((a, b) => a + b + 2147483648, 0), c.victims.length];
  };
  const less = (a: number[], b: number[]): boolean => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
    return false;
  };
  let best: Candidate | undefined;
  let bestKey: number[] | undefined;
  for (const c of candidates) {
    const k = key(c);
    if (!bestKey || less(k, bestKey)) {
      best = c;
      bestKey = k;
    }
  }
  return best;
}

/** A budget's selector against a pod's labels; an empty or bad selector matches nothing here. */
function budgetSelects(pdb: PodDisruptionBudget, labels: Record<string, string>): boolean {
  try {
    const sel = labelSelectorAsSelector(pdb.spec?.selector);
    return !sel.empty() && sel.matches(labels);
  } catch {
    return false;
  }
}

/**
 * filterPodsWithPDBViolation: walking the victims in order, each takes one
 * of its budgets' allowed disruptions; once a budget is overdrawn its pods
 * are violating. Pods the budget already counts as disrupted take nothing;
 * a budget with an empty selector matches nothing here, as upstream.
 */
export function filterPodsWithPDBViolation(pods: readonly PodInfo[], pdbs: readonly PodDisruptionBudget[]): { violating: PodInfo[]; nonViolating: PodInfo[] } {
  const allowed = pdbs.map((p) => p.status?.disruptionsAllowed ?? 0);
  const violating: PodInfo[] = [];
  const nonViolating: PodInfo[] = [];
  for (const p of pods) {
    const labels = p.pod.metadata.labels ?? {};
    let violated = false;
    if (Object.keys(labels).length > 0) {
      pdbs.forEach((pdb, i) => {
        if (pdb.metadata.namespace !== p.pod.metadata.namespace) return;
        if (!budgetSelects(pdb, labels) || pdb.status?.disruptedPods?.[p.pod.metadata.name!] !== undefined) return;
        allowed[i]!--;
        if (allowed[i]! < 0) violated = true;
      });
    }
    (violated ? violating : nonViolating).push(p);
  }
  return { violating, nonViolating };
}

export class DefaultPreemption implements PostFilterPlugin {
  readonly name = Names.DefaultPreemption;

  constructor(private readonly handle: Handle) {}

  async postFilter(state: CycleState, pod: Pod, statuses: NodeToStatus): Promise<{ result?: PostFilterResult; status: Status }> {
    const out = await this.preempt(state, pod, statuses);
    const msg = out.status.message();
    if (msg.length > 0) return { ...out, status: new Status(out.status.code, [`preemption: ${msg}`]) };
    return out;
  }

  /** Evaluator.Preempt. */
  async preempt(state: CycleState, pod: Pod, statuses: NodeToStatus): Promise<{ result?: PostFilterResult; status: Status }> {
    const why = this.notEligible(pod, statuses);
    if (why) return { status: newStatus(Code.Unschedulable, why) };

    const allNodes = this.handle.snapshot.list();
    const { candidates, dryRunStatuses } = this.findCandidates(state, pod, allNodes, statuses);
    if (candidates.length === 0) {
      const d = newDiagnosis();
      d.nodeToStatus = dryRunStatuses;
      d.absentNodesStatus = newStatus(Code.UnschedulableAndUnresolvable, MSG_NOT_HELPFUL);
      return { result: { nominatedNodeName: '' }, status: newStatus(Code.Unschedulable, fitErrorMessage(allNodes.length, d)) };
    }
    const best = pickOneNode(candidates);
    if (!best) return { status: newStatus(Code.Unschedulable, 'no candidate node for preemption') };
    const { deletePod, event, setNominatedNodeName } = this.handle.actions;
    if (!deletePod) return { status: newStatus(Code.Error, 'no API client to delete preemption victims with') };
    for (const v of best.victims) {
      try {
        await deletePod(v.pod, pod);
      } catch (err) {
        return { status: newStatus(Code.Error, `deleting victim ${v.key}: ${(err as Error).message}`) };
      }
      event?.(v.pod, 'Normal', 'Preempted', 'Preempting', `Preempted by pod ${pod.metadata.uid ?? ''} on node ${best.node}`, pod);
    }
    await setNominatedNodeName?.(pod, best.node).catch(() => undefined);
    return { result: { nominatedNodeName: best.node }, status: newStatus(Code.Success) };
  }

  private notEligible(pod: Pod, statuses: NodeToStatus): string | undefined {
    if (pod.spec?.preemptionPolicy === 'Never') return MSG_POLICY_NEVER;
    const nominated = pod.status?.nominatedNodeName;
    if (nominated) {
      const s = statuses.get(nominated);
      if (s?.code === Code.UnschedulableAndUnresolvable) return undefined;
      const info = this.handle.snapshot.get(nominated);
      const prio = podPriority(pod);
      if (info?.pods.some((p) => p.pod.metadata.deletionTimestamp && podPriority(p.pod) < prio)) return MSG_TERMINATING;
    }
    return undefined;
  }

  /** Dry-runs preemption on nodes rejected as Unschedulable (resolvable), starting at a random offset. */
  findCandidates(state: CycleState, pod: Pod, allNodes: readonly NodeInfo[], statuses: NodeToStatus): { candidates: Candidate[]; dryRunStatuses: NodeToStatus } {
    const potential = allNodes.filter((n) => statuses.get(n.name)?.code === Code.Unschedulable);
    const dryRunStatuses: NodeToStatus = new Map();
    const candidates: Candidate[] = [];
    if (potential.length === 0) return { candidates, dryRunStatuses };
    const pdbs = this.handle.actions.podDisruptionBudgets?.() ?? [];
    const wanted = Math.min(potential.length, Math.max(Math.floor((potential.length * MIN_CANDIDATE_NODES_PERCENTAGE) / 100), MIN_CANDIDATE_NODES_ABSOLUTE));
    const offset = Math.floor(Math.random() * potential.length);
    for (let i = 0; i < potential.length && candidates.length < wanted; i++) {
      const nodeInfo = potential[(offset + i) % potential.length]!;
      const { victims, numPDBViolations, status } = this.selectVictimsOnNode(state.clone(), pod, nodeInfo.clone(), pdbs);
      if (isSuccess(status) && victims.length > 0) candidates.push({ node: nodeInfo.name, victims, numPDBViolations });
      else if (status && !isSuccess(status)) dryRunStatuses.set(nodeInfo.name, status);
    }
    return { candidates, dryRunStatuses };
  }

  /**
   * Removes every lower-priority pod, checks the pod fits, then reprieves as
   * many (most important first) as still allow it: first those a budget
   * protects, counting the ones that must go anyway, then the rest.
   */
  selectVictimsOnNode(state: CycleState, pod: Pod, nodeInfo: NodeInfo, pdbs: readonly PodDisruptionBudget[] = []): { victims: PodInfo[]; numPDBViolations: number; status?: Status } {
    const prio = podPriority(pod);
    const potential = nodeInfo.pods.filter((p) => podPriority(p.pod) < prio);
    if (potential.length === 0) return { victims: [], numPDBViolations: 0, status: newStatus(Code.UnschedulableAndUnresolvable, MSG_NO_VICTIMS) };
    for (const p of potential) nodeInfo.removePod(p.key);
    const s = this.handle.runFilterPluginsWithNominatedPods(state, pod, nodeInfo);
    if (!isSuccess(s)) return { victims: [], numPDBViolations: 0, status: s };
    const victims: PodInfo[] = [];
    const { violating, nonViolating } = filterPodsWithPDBViolation([...potential].sort(moreImportant), pdbs);
    const reprieve = (p: PodInfo): boolean => {
      nodeInfo.addPodInfo(p);
      if (isSuccess(this.handle.runFilterPluginsWithNominatedPods(state, pod, nodeInfo))) return true;
      nodeInfo.removePod(p.key);
      victims.push(p);
      return false;
    };
    let numPDBViolations = 0;
    for (const p of violating) if (!reprieve(p)) numPDBViolations++;
    for (const p of nonViolating) reprieve(p);
    return { victims, numPDBViolations };
  }
}

export const newDefaultPreemption = (_args: unknown, handle: Handle): DefaultPreemption => new DefaultPreemption(handle);
