// framework/runtime: one profile's plugins sorted into extension points and
// the Run*Plugins loops, with upstream's rules — Filter stops at the first
// rejection, Score sums normalized scores times weights, Bind stops at the
// first plugin that does not Skip.

import type { Pod } from '@kubelab/api';
import { CycleState } from './cycle-state.js';
import type { ClusterActions, Handle, SnapshotLister, VolumeListers } from './handle.js';
import {
  is,
  MAX_NODE_SCORE,
  MIN_NODE_SCORE,
  type BindPlugin,
  type ClusterEventWithHint,
  type FilterPlugin,
  type NodeScore,
  type NodeToStatus,
  type Plugin,
  type PostFilterPlugin,
  type PostFilterResult,
  type PreEnqueuePlugin,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreBindPlugin,
  type PreScorePlugin,
  type QueueSortPlugin,
  type ReservePlugin,
  type ScorePlugin,
} from './interface.js';
import type { NodeInfo } from './node-info.js';
import type { PodNominator } from '../queue/nominator.js';
import { podPriority } from '../plugins/queue-sort/priority-sort.js';
import type { Profile } from './profile.js';
import type { Registry } from './registry.js';
import { asStatus, Code, isSuccess, newStatus, Status } from './status.js';

export class Framework {
  readonly profileName: string;
  readonly percentageOfNodesToScore: number;
  readonly plugins = new Map<string, Plugin>();
  readonly preEnqueue: PreEnqueuePlugin[] = [];
  readonly queueSort: QueueSortPlugin;
  readonly preFilter: PreFilterPlugin[] = [];
  readonly filter: FilterPlugin[] = [];
  readonly postFilter: PostFilterPlugin[] = [];
  readonly preScore: PreScorePlugin[] = [];
  readonly score: { plugin: ScorePlugin; weight: number }[] = [];
  readonly reserve: ReservePlugin[] = [];
  readonly preBind: PreBindPlugin[] = [];
  readonly bind: BindPlugin[] = [];
  private readonly scoreBuffer: NodeScore[] = [];

  constructor(
    registry: Registry,
    profile: Profile,
    snapshot: SnapshotLister,
    actions: ClusterActions = {},
    volumes?: VolumeListers,
    /** The queue's nominator (absent: nominated pods are not counted). */
    private readonly nominator?: PodNominator,
  ) {
    this.profileName = profile.schedulerName;
    this.percentageOfNodesToScore = profile.percentageOfNodesToScore ?? 0;
    const handle: Handle = {
      snapshot,
      actions,
      ...(volumes ? { volumes } : {}),
      runFilterPluginsWithNominatedPods: (state, pod, nodeInfo) => this.runFilterPluginsWithNominatedPods(state, pod, nodeInfo, false),
    };
    let queueSort: QueueSortPlugin | undefined;
    for (const spec of profile.plugins) {
      const factory = registry.get(spec.name);
      if (!factory) throw new Error(`profile ${profile.schedulerName}: plugin ${spec.name} is not registered`);
      if (this.plugins.has(spec.name)) throw new Error(`profile ${profile.schedulerName}: plugin ${spec.name} listed twice`);
      const p = factory(spec.args, handle);
      this.plugins.set(spec.name, p);
      if (is.preEnqueue(p)) this.preEnqueue.push(p);
      if (is.queueSort(p)) {
        if (queueSort) throw new Error(`profile ${profile.schedulerName}: only one queue sort plugin may be enabled`);
        queueSort = p;
      }
      if (is.preFilter(p)) this.preFilter.push(p);
      if (is.filter(p)) this.filter.push(p);
      if (is.postFilter(p)) this.postFilter.push(p);
      if (is.preScore(p)) this.preScore.push(p);
      if (is.score(p)) {
        const weight = spec.weight ?? 1;
        if (weight <= 0) throw new Error(`profile ${profile.schedulerName}: score plugin ${spec.name} needs a positive weight`);
        this.score.push({ plugin: p, weight });
      }
      if (is.reserve(p)) this.reserve.push(p);
      if (is.preBind(p)) this.preBind.push(p);
      if (is.bind(p)) this.bind.push(p);
    }
    if (!queueSort) throw new Error(`profile ${profile.schedulerName}: a queue sort plugin is required`);
    if (this.bind.length === 0) throw new Error(`profile ${profile.schedulerName}: at least one bind plugin is required`);
    this.queueSort = queueSort;
  }

  /** Every plugin's registered events, keyed by plugin name (for the queue). */
  eventsToRegister(): Map<string, ClusterEventWithHint[]> {
    const out = new Map<string, ClusterEventWithHint[]>();
    for (const [name, p] of this.plugins) if (is.enqueueExtensions(p)) out.set(name, p.eventsToRegister());
    return out;
  }

  runPreEnqueuePlugins(pod: Pod): Status | undefined {
    for (const p of this.preEnqueue) {
      const s = p.preEnqueue(pod);
      if (!isSuccess(s)) return s!.withPlugin(p.name);
    }
    return undefined;
  }

  /** PreFilter: a rejection applies to every node; results intersect. */
  runPreFilterPlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): { result?: PreFilterResult; status?: Status; narrowedBy?: string[] } {
    let result: PreFilterResult | undefined;
    const narrowedBy: string[] = [];
    for (const p of this.preFilter) {
      let out: ReturnType<PreFilterPlugin['preFilter']>;
      try {
        out = p.preFilter(state, pod, nodes);
      } catch (err) {
        return { status: asStatus(new Error(`running PreFilter plugin "${p.name}": ${(err as Error).message}`)).withPlugin(p.name) };
      }
      const s = out?.status;
      if (s?.isSkip()) {
        state.skipFilterPlugins.add(p.name);
        continue;
      }
      if (!isSuccess(s)) return { status: s!.withPlugin(p.name) };
      const names = out?.result?.nodeNames;
      if (names) {
        narrowedBy.push(p.name);
        if (!result?.nodeNames) result = { nodeNames: new Set(names) };
        else result = { nodeNames: new Set([...result.nodeNames].filter((n) => names.has(n))) };
        if (result.nodeNames!.size === 0) {
          return {
            result,
            status: newStatus(Code.UnschedulableAndUnresolvable, `node(s) didn't satisfy plugin(s) [${narrowedBy.join(' ')}] simultaneously`).withPlugin(p.name),
          };
        }
      }
    }
    return result ? { result, narrowedBy } : {};
  }

  /** Filter: the first plugin that does not say Success decides. */
  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo, honourSkip = true): Status | undefined {
    const filters = this.filter;
    for (let i = 0; i < filters.length; i++) {
      const p = filters[i]!;
      if (honourSkip && state.skipFilterPlugins.size > 0 && state.skipFilterPlugins.has(p.name)) continue;
      let s: Status | undefined;
      try {
        s = p.filter(state, pod, nodeInfo);
      } catch (err) {
        s = asStatus(new Error(`running "${p.name}" filter plugin: ${(err as Error).message}`));
      }
      if (s && s.code !== Code.Success) {
        if (s.plugin === '') s.plugin = p.name;
        return s;
      }
    }
    return undefined;
  }

  /**
   * addNominatedPods: a copy of the node with the pods nominated to it of
   * priority >= the pod's (not the pod itself) added, or undefined when there
   * are none — lower-priority nominations do not hold space against it.
   */
  addNominatedPods(pod: Pod, nodeInfo: NodeInfo): NodeInfo | undefined {
    // Nothing nominated anywhere (the common case): no lookup for each of the ~500 nodes a cycle filters.
    if (!this.nominator?.hasNominatedPods()) return undefined;
    const nominated = this.nominator.nominatedPodsForNode(nodeInfo.name);
    if (nominated.length === 0) return undefined;
    const prio = podPriority(pod);
    const self = `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
    let out: NodeInfo | undefined;
    for (const pi of nominated) {
      if (pi.key === self || podPriority(pi.pod) < prio) continue;
      out ??= nodeInfo.clone();
      out.addPodInfo(pi);
    }
    return out;
  }

  /**
   * RunFilterPluginsWithNominatedPods: the filters run with the nominated pods
   * added, and, when any were added and that passed, again without them (a
   * pod may depend on them, as with pod affinity); it fits only if both pass.
   */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo, honourSkip = true): Status | undefined {
    const withNominated = this.addNominatedPods(pod, nodeInfo);
    if (!withNominated) return this.runFilterPlugins(state, pod, nodeInfo, honourSkip);
    const s = this.runFilterPlugins(state.clone(), pod, withNominated, honourSkip);
    if (!isSuccess(s)) return s;
    return this.runFilterPlugins(state, pod, nodeInfo, honourSkip);
  }

  async runPostFilterPlugins(state: CycleState, pod: Pod, statuses: NodeToStatus): Promise<{ result?: PostFilterResult; status: Status }> {
    let last: { result?: PostFilterResult; status: Status } = { status: newStatus(Code.Unschedulable) };
    const reasons: string[] = [];
    for (const p of this.postFilter) {
      const out = await p.postFilter(state, pod, statuses);
      out.status.withPlugin(p.name);
      if (out.status.isSuccess()) return out;
      if (out.status.code === Code.Error) return out;
      reasons.push(...out.status.reasons);
      last = out;
    }
    return { ...(last.result ? { result: last.result } : {}), status: new Status(Code.Unschedulable, reasons) };
  }

  runPreScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | undefined {
    for (const p of this.preScore) {
      let s: Status | undefined;
      try {
        s = p.preScore(state, pod, nodes);
      } catch (err) {
        return asStatus(new Error(`running PreScore plugin "${p.name}": ${(err as Error).message}`));
      }
      if (s?.isSkip()) {
        state.skipScorePlugins.add(p.name);
        continue;
      }
      if (!isSuccess(s)) return s!.withPlugin(p.name);
    }
    return undefined;
  }

  /**
   * Score → NormalizeScore → × weight, summed per node (aligned with `nodes`). Throws ScoreError on a bad score.
   * With `detail` (only when a decision record is wanted), each plugin's raw and normalized scores are kept there too.
   */
  runScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[], detail?: PluginScores[]): number[] {
    const n = nodes.length;
    const totals = new Array<number>(n).fill(0);
    // One NodeScore list reused across cycles (the cycle is synchronous), resized to this pod's nodes.
    const scores = this.scoreBuffer;
    for (let i = 0; i < n; i++) {
      const sc = scores[i];
      if (sc) {
        sc.name = nodes[i]!.name;
        sc.score = 0;
      } else scores.push({ name: nodes[i]!.name, score: 0 });
    }
    scores.length = n;
    for (const { plugin, weight } of this.score) {
      if (state.skipScorePlugins.size > 0 && state.skipScorePlugins.has(plugin.name)) continue;
      try {
        for (let i = 0; i < n; i++) scores[i]!.score = plugin.score(state, pod, nodes[i]!);
      } catch (err) {
        throw new ScoreError(`running Score plugin "${plugin.name}": ${(err as Error).message}`);
      }
      const raw = detail ? scores.map((x) => x.score) : undefined;
      if (plugin.normalizeScore) {
        const s = plugin.normalizeScore(state, pod, scores);
        if (!isSuccess(s)) throw new ScoreError(`running Normalize on Score plugins: plugin "${plugin.name}" failed: ${s!.message()}`);
      }
      if (detail) detail.push({ plugin: plugin.name, weight, raw: raw!, normalized: scores.map((x) => x.score) });
      for (let i = 0; i < n; i++) {
        const sc = scores[i]!.score;
        if (sc > MAX_NODE_SCORE || sc < MIN_NODE_SCORE) {
          throw new ScoreError(`plugin "${plugin.name}" returns an invalid score ${sc}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`);
        }
        totals[i]! += sc * weight;
      }
    }
    return totals;
  }

  /** The Filter plugins this pod runs (those not skipped at PreFilter), in order. */
  activeFilters(state: CycleState): FilterPlugin[] {
    if (state.skipFilterPlugins.size === 0) return this.filter;
    return this.filter.filter((p) => !state.skipFilterPlugins.has(p.name));
  }

  runReservePlugins(state: CycleState, pod: Pod, nodeName: string): Status | undefined {
    for (const p of this.reserve) {
      const s = p.reserve(state, pod, nodeName);
      if (!isSuccess(s)) return s!.withPlugin(p.name);
    }
    return undefined;
  }

  runUnreservePlugins(state: CycleState, pod: Pod, nodeName: string): void {
    for (let i = this.reserve.length - 1; i >= 0; i--) this.reserve[i]!.unreserve(state, pod, nodeName);
  }

  /** PreBind: the first failure ends the loop (upstream RunPreBindPlugins). */
  async runPreBindPlugins(state: CycleState, pod: Pod, nodeName: string): Promise<Status | undefined> {
    for (const p of this.preBind) {
      let s: Status | undefined;
      try {
        s = await p.preBind(state, pod, nodeName);
      } catch (err) {
        s = asStatus(err);
      }
      if (s && !s.isSuccess() && !s.isSkip()) return s.withPlugin(p.name);
    }
    return undefined;
  }

  async runBindPlugins(state: CycleState, pod: Pod, nodeName: string): Promise<Status | undefined> {
    for (const p of this.bind) {
      let s: Status | undefined;
      try {
        s = await p.bind(state, pod, nodeName);
      } catch (err) {
        s = asStatus(err);
      }
      if (s?.isSkip()) continue;
      return s && !s.isSuccess() ? s.withPlugin(p.name) : undefined;
    }
    return newStatus(Code.Error, `no bind plugin bound pod ${pod.metadata.namespace}/${pod.metadata.name}`);
  }

  newCycleState(): CycleState {
    return new CycleState();
  }
}

/** One Score plugin's scores in a cycle, aligned with the scored nodes (a decision record's material). */
export interface PluginScores {
  plugin: string;
  weight: number;
  raw: number[];
  normalized: number[];
}

export class ScoreError extends Error {
  override name = 'ScoreError';
}
