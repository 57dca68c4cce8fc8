// NodeAffinity: Filter requires spec.nodeSelector and the required node
// affinity to match the node's labels (and metadata.name fields); PreFilter
// narrows the nodes when every term names nodes by metadata.name (how
// DaemonSet pods are pinned); Score sums the weights of matching preferred terms.

import { matchNodeSelector, matchNodeSelectorTerm, type NodeSelector, type NodeSelectorTerm, type Pod } from '@kubelab/api';
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType, event, Events } from '../../framework/events.js';
import {
  MAX_NODE_SCORE,
  type ClusterEventWithHint,
  type EnqueueExtensions,
  type FilterPlugin,
  type NodeScore,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type ScorePlugin,
} from '../../framework/interface.js';
import { Names } from '../../framework/names.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Code, newStatus, type Status } from '../../framework/status.js';
import { defaultNormalizeScore } from '../helper/normalize-score.js';

export const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
export const ERR_REASON_CONFLICT = 'pod affinity terms conflict';

const PRE_FILTER_KEY = `PreFilter${Names.NodeAffinity}`;
const PRE_SCORE_KEY = `PreScore${Names.NodeAffinity}`;

interface PreFilterState {
  nodeSelector: [string, string][];
  required: NodeSelector | undefined;
}

interface PreScoreState {
  preferred: { weight: number; term: NodeSelectorTerm }[];
}

/** Whether the node satisfies the pod's nodeSelector and required affinity (upstream GetRequiredNodeAffinity(pod).Match). */
export function requiredNodeAffinityMatches(s: PreFilterState, nodeInfo: NodeInfo): boolean {
  const node = nodeInfo.node;
  if (!node) return false;
  const labels = node.metadata.labels;
  for (const [k, v] of s.nodeSelector) if (labels?.[k] !== v) return false;
  return !s.required || matchNodeSelector(s.required, node);
}

function requiredState(pod: Pod): PreFilterState {
  return {
    nodeSelector: Object.entries(pod.spec?.nodeSelector ?? {}),
    required: pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
  };
}

/** Nodes named by metadata.name In terms; undefined when some term does not pin names (all nodes stay eligible). */
export function nodeNamesFromTerms(terms: readonly NodeSelectorTerm[]): Set<string> | undefined {
  let names: Set<string> | undefined;
  for (const t of terms) {
    let termNames: Set<string> | undefined;
    for (const r of t.matchFields ?? []) {
      if (r.key !== 'metadata.name' || r.operator !== 'In') continue;
      const s = new Set(r.values ?? []);
      termNames = termNames ? new Set([...termNames].filter((n) => s.has(n))) : s;
    }
    if (!termNames) return undefined;
    names = new Set([...(names ?? []), ...termNames]);
  }
  return names;
}

export class NodeAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = Names.NodeAffinity;

  eventsToRegister(): ClusterEventWithHint[] {
    return [{ event: Events.NodeAdd }, { event: event('Node', ActionType.UpdateNodeLabel, 'NodeLabelChange') }];
  }

  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status?: Status } | undefined {
    const s = requiredState(pod);
    if (s.nodeSelector.length === 0 && !s.required) return { status: newStatus(Code.Skip) };
    state.write(PRE_FILTER_KEY, s);
    if (!s.required) return undefined;
    const names = nodeNamesFromTerms(s.required.nodeSelectorTerms ?? []);
    if (!names) return undefined;
    if (names.size === 0) return { status: newStatus(Code.UnschedulableAndUnresolvable, ERR_REASON_CONFLICT) };
    return { result: { nodeNames: names } };
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const s = state.read<PreFilterState>(PRE_FILTER_KEY) ?? requiredState(pod);
    if (requiredNodeAffinityMatches(s, nodeInfo)) return undefined;
    return newStatus(Code.UnschedulableAndUnresolvable, ERR_REASON_POD);
  }

  preScore(state: CycleState, pod: Pod): Status | undefined {
    const preferred = (pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).filter((p) => p.weight !== 0).map((p) => ({ weight: p.weight, term: p.preference }));
    if (preferred.length === 0) return newStatus(Code.Skip);
    state.write(PRE_SCORE_KEY, { preferred } satisfies PreScoreState);
    return undefined;
  }

  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number {
    const s = state.read<PreScoreState>(PRE_SCORE_KEY);
    if (!s) throw new Error(`reading "${PRE_SCORE_KEY}" from cycleState: not found`);
    const node = nodeInfo.node;
    if (!node) return 0;
    let sum = 0;
    for (const p of s.preferred) if (matchNodeSelectorTerm(p.term, node)) sum += p.weight;
    return sum;
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status | undefined {
    defaultNormalizeScore(MAX_NODE_SCORE, false, scores);
    return undefined;
  }
}

export const newNodeAffinity = (): NodeAffinity => new NodeAffinity();
