// The HPA's decision for one sync (upstream horizontal.go reconcileAutoscaler
// and normalizeDesiredReplicas): a target at zero replicas is not scaled
// (ScalingDisabled); one outside [minReplicas, maxReplicas] is brought back;
// otherwise the metrics' recommendation is normalized, with the spec's
// behavior (behavior.ts) or, without one, the controller's own rules: the
// highest recommendation of the downscale stabilization window (5 min), then
// at most max(2×current, 4) replicas.

import { normalizeWithBehaviors, rescaleReason, type Behavior, type ConditionUpdate, type Recommendation, type ScaleEvent } from './behavior.js';

/** --horizontal-pod-autoscaler-downscale-stabilization default, ms. */
export const DOWNSCALE_STABILIZATION_MS = 5 * 60_000;

/** Without a behavior: the highest recommendation of the window bounds a scale-down (upstream stabilizeRecommendation). */
export function stabilizeWithoutBehavior(now: number, desired: number, history: readonly Recommendation[], windowMs = DOWNSCALE_STABILIZATION_MS): { replicas: number; history: Recommendation[] } {
  let max = desired;
  let old = -1;
  history.forEach((r, i) => {
    if (r.timestamp < now - windowMs) old = i;
    else if (r.replicas > max) max = r.replicas;
  });
  const next = [...history];
  if (old >= 0) next[old] = { timestamp: now, replicas: desired };
  else next.push({ timestamp: now, replicas: desired });
  return { replicas: max, history: next };
}

/** The bounds without a behavior (upstream convertDesiredReplicasWithRules, calculateScaleUpLimit). */
export function limitWithoutBehavior(current: number, desired: number, minReplicas: number, maxReplicas: number): { replicas: number; reason: string; message: string } {
  const scaleUpLimit = Math.max(2 * current, 4);
  const [maximum, reason, message] =
    maxReplicas > scaleUpLimit
      ? [scaleUpLimit, 'ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate']
      : [maxReplicas, 'TooManyReplicas', 'the desired replica count is more than the maximum replica count'];
  if (desired < minReplicas) return { replicas: minReplicas, reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
  if (desired > maximum) return { replicas: maximum, reason, message };
  return { replicas: desired, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
}

export interface DecideInput {
  now: number;
  /** The target's scale: spec.replicas. */
  current: number;
  minReplicas: number;
  maxReplicas: number;
  /** The metrics' recommendation; undefined when it could not be computed (then the size stays). */
  metricReplicas: number | undefined;
  /** The metric the recommendation came from, as the rescale reason names it (`cpu resource utilization (percentage of request)`). */
  metricName: string;
  /** The spec's behavior with defaults filled in, or undefined when the spec has none. */
  behavior: Behavior | undefined;
  history: readonly Recommendation[];
  scaleUpEvents: readonly ScaleEvent[];
  scaleDownEvents: readonly ScaleEvent[];
  /** --horizontal-pod-autoscaler-downscale-stabilization, for a spec without behavior (default 5 min). */
  downscaleStabilizationMs?: number;
}

export interface Decision {
  desired: number;
  rescale: boolean;
  /** For the SuccessfulRescale event. */
  reason: string;
  history: Recommendation[];
  ableToScale?: ConditionUpdate;
  scalingLimited?: ConditionUpdate;
  scalingActive?: ConditionUpdate;
}

export function decideScale(i: DecideInput): Decision {
  if (i.current === 0 && i.minReplicas !== 0) {
    return {
      desired: 0,
      rescale: false,
      reason: '',
      history: [...i.history],
      scalingActive: { status: 'False', reason: 'ScalingDisabled', message: 'scaling is disabled since the replica count of the target is zero' },
    };
  }
  if (i.current > i.maxReplicas || i.current < i.minReplicas) {
    const desired = i.current > i.maxReplicas ? i.maxReplicas : i.minReplicas;
    return { desired, rescale: true, reason: rescaleReason(i.current, desired, i.minReplicas, i.maxReplicas, i.metricName), history: [...i.history] };
  }
  if (i.metricReplicas === undefined) return { desired: i.current, rescale: false, reason: '', history: [...i.history] };
  const proposed = Math.max(i.metricReplicas, 0);
  if (i.behavior) {
    const n = normalizeWithBehaviors({
      now: i.now,
      current: i.current,
      desired: proposed,
      minReplicas: i.minReplicas,
      maxReplicas: i.maxReplicas,
      behavior: i.behavior,
      history: i.history,
      scaleUpEvents: i.scaleUpEvents,
      scaleDownEvents: i.scaleDownEvents,
    });
    return {
      desired: n.replicas,
      rescale: n.replicas !== i.current,
      reason: rescaleReason(i.current, n.replicas, i.minReplicas, i.maxReplicas, i.metricName),
      history: n.history,
      ableToScale: n.ableToScale,
      scalingLimited: n.scalingLimited,
    };
  }
  const s = stabilizeWithoutBehavior(i.now, proposed, i.history, i.downscaleStabilizationMs);
  const ableToScale: ConditionUpdate =
    s.replicas !== proposed
      ? { status: 'True', reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' }
      : { status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size' };
  const l = limitWithoutBehavior(i.current, s.replicas, i.minReplicas, i.maxReplicas);
  return {
    desired: l.replicas,
    rescale: l.replicas !== i.current,
    reason: rescaleReason(i.current, l.replicas, i.minReplicas, i.maxReplicas, i.metricName),
    history: s.history,
    ableToScale,
    scalingLimited: { status: l.replicas === s.replicas ? 'False' : 'True', reason: l.reason, message: l.message },
  };
}
