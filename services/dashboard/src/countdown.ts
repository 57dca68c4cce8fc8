// The cluster map's countdowns, as pure functions (no imports: the page
// bundles this file). A node whose kubelet stops renewing its Lease turns grey
// ("heartbeat late"); the node lifecycle controller marks it NotReady
// (Ready=Unknown) once the Lease is older than --node-monitor-grace-period,
// then taints it node.kubernetes.io/unreachable:NoExecute (or not-ready when
// the kubelet itself said NotReady); the taint eviction controller deletes
// each pod on it after the smallest tolerationSeconds of the tolerations it
// uses (300 s from the DefaultTolerationSeconds admission plugin), counted
// from the taint's timeAdded.

/** A taint as the map carries it (core/v1 Taint, timeAdded in ms). */
export interface TaintView {
  key: string;
  value?: string;
  effect: string;
  /** metadata-free copy of spec.taints[].timeAdded, in ms since the epoch. */
  timeAdded?: number;
}

/** A toleration as the map carries it (core/v1 Toleration). */
export interface TolerationView {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export type NodePhase = 'ready' | 'stale' | 'notready';

/** The shortest lateness that greys a node: its kubelet renews every quarter of the lease, so two missed renewals (and at least 3 s). */
export function staleAfterMs(leaseDurationSeconds: number | undefined): number {
  return Math.max((((leaseDurationSeconds ?? 40) * 1000) / 4) * 2, 3000);
}

/** Ready, grey (Ready=True but the heartbeat is late), or NotReady (the Ready condition is False or Unknown). */
export function nodePhase(ready: string, heartbeat: number | undefined, leaseDurationSeconds: number | undefined, now: number): NodePhase {
  if (ready !== 'True') return 'notready';
  if (heartbeat !== undefined && now - heartbeat > staleAfterMs(leaseDurationSeconds)) return 'stale';
  return 'ready';
}

/** Whole seconds from `now` until `deadline`, rounded up, never below 0. */
export function secondsUntil(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** When the node lifecycle controller will mark the node NotReady: the Lease's renewTime plus the grace period. */
export function notReadyAt(heartbeat: number, gracePeriodMs: number): number {
  return heartbeat + gracePeriodMs;
}

/** v1helper.ToleratesTaint: effect, key, then the operator's value test. */
export function tolerates(t: TolerationView, taint: TaintView): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  const op = t.operator ?? '';
  if (op === 'Exists') return true;
  if (op === '' || op === 'Equal') return (t.value ?? '') === (taint.value ?? '');
  return false;
}

export type Eviction =
  /** No NoExecute taint, or every one tolerated forever. */
  | { kind: 'none' }
  /** A NoExecute taint no toleration covers (or a toleration of 0 s): evicted at once. */
  | { kind: 'now'; taint: TaintView; untolerated: boolean }
  /** Evicted at `at` (ms), `seconds` after `taint` was added. */
  | { kind: 'at'; at: number; seconds: number; taint: TaintView };

/** key[=value]:effect, as kubectl describe node prints a taint. */
export const taintText = (t: TaintView): string => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;

/**
 * When the taint eviction controller deletes a pod on a node with these
 * taints (processPodOnNode): at once when a NoExecute taint is not
 * tolerated; else after the smallest tolerationSeconds among the first
 * toleration matching each taint, counted from that taint's timeAdded;
 * never when they all tolerate forever.
 */
export function evictionOf(taints: readonly TaintView[], tolerations: readonly TolerationView[] | undefined): Eviction {
  const noExecute = taints.filter((t) => t.effect === 'NoExecute');
  let best: { at: number; seconds: number; taint: TaintView } | undefined;
  for (const taint of noExecute) {
    const used = (tolerations ?? []).find((t) => tolerates(t, taint));
    if (!used) return { kind: 'now', taint, untolerated: true };
    if (used.tolerationSeconds === undefined) continue;
    if (used.tolerationSeconds <= 0) return { kind: 'now', taint, untolerated: false };
    // A taint without timeAdded (written by hand) counts from the epoch: the pod is due at once, as the controller would decide on seeing it.
    const at = (taint.timeAdded ?? 0) + used.tolerationSeconds * 1000;
    if (!best || used.tolerationSeconds < best.seconds) best = { at, seconds: used.tolerationSeconds, taint };
  }
  return best ? { kind: 'at', ...best } : { kind: 'none' };
}

/** The pod chip's countdown text, or undefined when no eviction is coming. */
export function evictionText(e: Eviction, now: number): string | undefined {
  if (e.kind === 'none') return undefined;
  if (e.kind === 'now') return `evicted now (${taintText(e.taint)}${e.untolerated ? ' not tolerated' : ', tolerationSeconds=0'})`;
  // Never more than the toleration: the page's clock may run a little behind the apiserver's timeAdded.
  const left = Math.min(e.seconds, secondsUntil(e.at, now));
  return left > 0 ? `evicted in ${left}s (${taintText(e.taint)}, tolerationSeconds=${e.seconds})` : `evicting (${taintText(e.taint)}, tolerationSeconds=${e.seconds} passed)`;
}

/** The node box's countdown text while the heartbeat is late, before the controller decides. */
export function notReadyText(heartbeat: number, gracePeriodMs: number, now: number): string {
  const left = secondsUntil(notReadyAt(heartbeat, gracePeriodMs), now);
  return left > 0
    ? `NotReady in ~${left}s (node-monitor-grace-period ${Math.round(gracePeriodMs / 1000)}s)`
    : `NotReady due now (node-monitor-grace-period ${Math.round(gracePeriodMs / 1000)}s passed)`;
}
