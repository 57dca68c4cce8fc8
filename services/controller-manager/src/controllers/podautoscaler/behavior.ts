// The HPA's behavior (upstream horizontal.go normalizeDesiredReplicasWithBehaviors):
// the recommendation is stabilized over the scale-up and scale-down windows
// (the lowest recent recommendation bounds a scale-up, the highest a
// scale-down), then limited by the policies' rates over their periods and
// by minReplicas/maxReplicas; each step names its condition reason. Pure:
// the recommendation history and the scale events are passed in and the
// updated history handed back.

export interface ScalingPolicy {
  type: 'Pods' | 'Percent';
  value: number;
  periodSeconds: number;
}

export interface ScalingRules {
  stabilizationWindowSeconds: number;
  selectPolicy: 'Max' | 'Min' | 'Disabled';
  policies: ScalingPolicy[];
}

export interface Behavior {
  scaleUp: ScalingRules;
  scaleDown: ScalingRules;
}

/** upstream SetDefaults_HorizontalPodAutoscalerBehavior: up at once by 4 pods or 100% per 15 s, down after a 300 s window by up to 100% per 15 s. */
export const DEFAULT_SCALE_UP: ScalingRules = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};
export const DEFAULT_SCALE_DOWN: ScalingRules = { stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

/** A spec's behavior with upstream's defaults filled in per field. */
export function withDefaultBehavior(b: { scaleUp?: Partial<ScalingRules>; scaleDown?: Partial<ScalingRules> } | undefined): Behavior {
  const fill = (r: Partial<ScalingRules> | undefined, d: ScalingRules): ScalingRules => ({
    stabilizationWindowSeconds: r?.stabilizationWindowSeconds ?? d.stabilizationWindowSeconds,
    selectPolicy: r?.selectPolicy ?? d.selectPolicy,
    policies: r?.policies?.length ? r.policies : d.policies,
  });
  return { scaleUp: fill(b?.scaleUp, DEFAULT_SCALE_UP), scaleDown: fill(b?.scaleDown, DEFAULT_SCALE_DOWN) };
}

export interface Recommendation {
  /** ms since the epoch. */
  timestamp: number;
  replicas: number;
}

export interface ScaleEvent {
  timestamp: number;
  /** Replicas added (scale-up events) or removed (scale-down events). */
  change: number;
}

export interface ConditionUpdate {
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/** Recent recommendations bound the new one (upstream stabilizeRecommendationWithBehaviors); the new one is recorded, replacing one older than both windows. */
export function stabilize(
  now: number,
  current: number,
  desired: number,
  b: Behavior,
  history: readonly Recommendation[],
): { replicas: number; history: Recommendation[]; reason: string; message: string } {
  const upCutoff = now - b.scaleUp.stabilizationWindowSeconds * 1000;
  const downCutoff = now - b.scaleDown.stabilizationWindowSeconds * 1000;
  let up = desired;
  let down = desired;
  let old = -1;
  history.forEach((r, i) => {
    if (r.timestamp > upCutoff) up = Math.min(up, r.replicas);
    if (r.timestamp > downCutoff) down = Math.max(down, r.replicas);
    if (r.timestamp < upCutoff && r.timestamp < downCutoff) old = i;
  });
  let replicas = current;
  if (replicas < up) replicas = up;
  if (replicas > down) replicas = down;
  const next = [...history];
  if (old >= 0) next[old] = { timestamp: now, replicas: desired };
  else next.push({ timestamp: now, replicas: desired });
  return desired >= current
    ? { replicas, history: next, reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' }
    : { replicas, history: next, reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' };
}

const changeIn = (now: number, periodSeconds: number, events: readonly ScaleEvent[]) => events.filter((e) => e.timestamp > now - periodSeconds * 1000).reduce((n, e) => n + e.change, 0);

/** The most replicas the scale-up policies allow now (upstream calculateScaleUpLimitWithScalingRules). */
export function scaleUpLimit(now: number, current: number, ups: readonly ScaleEvent[], downs: readonly ScaleEvent[], r: ScalingRules): number {
  if (r.selectPolicy === 'Disabled') return current;
  const pick = r.selectPolicy === 'Min' ? Math.min : Math.max;
  let result = r.selectPolicy === 'Min' ? Infinity : -Infinity;
  for (const p of r.policies) {
    const start = current - changeIn(now, p.periodSeconds, ups) + changeIn(now, p.periodSeconds, downs);
    result = pick(result, p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100)));
  }
  return result;
}

/** The fewest replicas the scale-down policies allow now (upstream calculateScaleDownLimitWithBehaviors). */
export function scaleDownLimit(now: number, current: number, ups: readonly ScaleEvent[], downs: readonly ScaleEvent[], r: ScalingRules): number {
  if (r.selectPolicy === 'Disabled') return current;
  const pick = r.selectPolicy === 'Min' ? Math.max : Math.min;
  let result = r.selectPolicy === 'Min' ? -Infinity : Infinity;
  for (const p of r.policies) {
    const start = current - changeIn(now, p.periodSeconds, ups) + changeIn(now, p.periodSeconds, downs);
    result = pick(result, p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100)));
  }
  return result;
}

export interface NormalizeInput {
  now: number;
  current: number;
  /** The metrics' recommendation, before stabilization. */
  desired: number;
  minReplicas: number;
  maxReplicas: number;
  behavior: Behavior;
  history: readonly Recommendation[];
  scaleUpEvents: readonly ScaleEvent[];
  scaleDownEvents: readonly ScaleEvent[];
}

export interface Normalized {
  replicas: number;
  history: Recommendation[];
  ableToScale: ConditionUpdate;
  scalingLimited: ConditionUpdate;
}

/** Stabilization, then the rate and bounds limits, with the AbleToScale and ScalingLimited conditions they set. */
export function normalizeWithBehaviors(i: NormalizeInput): Normalized {
  const s = stabilize(i.now, i.current, i.desired, i.behavior, i.history);
  const ableToScale: ConditionUpdate =
    s.replicas !== i.desired ? { status: 'True', reason: s.reason, message: s.message } : { status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size' };
  let replicas = s.replicas;
  let reason = 'DesiredWithinRange';
  let message = 'the desired count is within the acceptable range';
  if (s.replicas > i.current) {
    const limit = Math.max(scaleUpLimit(i.now, i.current, i.scaleUpEvents, i.scaleDownEvents, i.behavior.scaleUp), i.current);
    let allowed = i.maxReplicas;
    let why: [string, string] = ['TooManyReplicas', 'the desired replica count is more than the maximum replica count'];
    if (allowed > limit) {
      allowed = limit;
      why = ['ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate'];
    }
    if (s.replicas > allowed) [replicas, reason, message] = [allowed, ...why];
  } else if (s.replicas < i.current) {
    const limit = Math.min(scaleDownLimit(i.now, i.current, i.scaleUpEvents, i.scaleDownEvents, i.behavior.scaleDown), i.current);
    let allowed = i.minReplicas;
    let why: [string, string] = ['TooFewReplicas', 'the desired replica count is less than the minimum replica count'];
    if (allowed < limit) {
      allowed = limit;
      why = ['ScaleDownLimit', 'the desired replica count is decreasing faster than the maximum scale rate'];
    }
    if (s.replicas < allowed) [replicas, reason, message] = [allowed, ...why];
  }
  return { replicas, history: s.history, ableToScale, scalingLimited: { status: replicas === s.replicas ? 'False' : 'True', reason, message } };
}

/** The SuccessfulRescale event's message (upstream: `New size: %d; reason: %s`). */
export function rescaleMessage(replicas: number, reason: string): string {
  return `New size: ${replicas}; reason: ${reason}`;
}

/** Why the size changed, as upstream words it (`<metric name> above target`). */
export function rescaleReason(current: number, desired: number, minReplicas: number, maxReplicas: number, metricName: string): string {
  if (current > maxReplicas) return 'Current number of replicas above Spec.MaxReplicas';
  if (current < minReplicas) return 'Current number of replicas below Spec.MinReplicas';
  return desired > current ? `${metricName} above target` : 'All metrics below target';
}
