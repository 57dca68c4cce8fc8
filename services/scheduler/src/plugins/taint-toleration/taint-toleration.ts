// TaintToleration: Filter rejects a node with a NoSchedule/NoExecute taint the
// pod does not tolerate (naming the first such taint); Score prefers nodes
// with fewer untolerated PreferNoSchedule taints.

import { findUntoleratedTaint, tolerationsTolerateTaint, type Pod, type Taint, type Toleration } from '@kubelab/api';
import type { CycleState } from '../../framework/cycle-state.js';
import { Events } from '../../framework/events.js';
import { MAX_NODE_SCORE, type ClusterEventWithHint, type EnqueueExtensions, type FilterPlugin, type NodeScore, type PreScorePlugin, type ScorePlugin } from '../../framework/interface.js';
import { Names } from '../../framework/names.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Code, newStatus, type Status } from '../../framework/status.js';
import { defaultNormalizeScore } from '../helper/normalize-score.js';

const PRE_SCORE_KEY = `PreScore${Names.TaintToleration}`;

interface PreScoreState {
  tolerationsPreferNoSchedule: Toleration[];
}

const isHardTaint = (t: Taint): boolean => t.effect === 'NoSchedule' || t.effect === 'NoExecute';

export function untoleratedTaintReason(taint: Taint): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

export class TaintToleration implements FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = Names.TaintToleration;

  eventsToRegister(): ClusterEventWithHint[] {
    return [{ event: Events.NodeAdd }, { event: Events.NodeTaintChange }, { event: Events.UnscheduledPodTolerationChange }];
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const taints = nodeInfo.taints;
    if (!taints || taints.length === 0) return undefined;
    const taint = findUntoleratedTaint(taints, pod.spec?.tolerations, isHardTaint);
    if (!taint) return undefined;
    return newStatus(Code.UnschedulableAndUnresolvable, untoleratedTaintReason(taint));
  }

  preScore(state: CycleState, pod: Pod): Status | undefined {
    const tolerationsPreferNoSchedule = (pod.spec?.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
    state.write(PRE_SCORE_KEY, { tolerationsPreferNoSchedule } satisfies PreScoreState);
    return undefined;
  }

  /** Raw score: how many PreferNoSchedule taints the pod does not tolerate (fewer is better). */
  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number {
    const taints = nodeInfo.taints;
    if (!taints || taints.length === 0) return 0;
    const s = state.read<PreScoreState>(PRE_SCORE_KEY);
    if (!s) throw new Error(`reading "${PRE_SCORE_KEY}" from cycleState: not found`);
    let n = 0;
    for (const t of taints) if (t.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(s.tolerationsPreferNoSchedule, t)) n++;
    return n;
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status | undefined {
    defaultNormalizeScore(MAX_NODE_SCORE, true, scores);
    return undefined;
  }
}

export const newTaintToleration = (): TaintToleration => new TaintToleration();
