import { describe, expect, it } from 'vitest';
import { withDefaultBehavior } from './behavior.js';
import { decideScale, limitWithoutBehavior, stabilizeWithoutBehavior, type DecideInput } from './normalize.js';

const T = 10_000_000;
const base: DecideInput = {
  now: T,
  current: 1,
  minReplicas: 1,
  maxReplicas: 5,
  metricReplicas: 1,
  metricName: 'cpu resource utilization (percentage of request)',
  behavior: undefined,
  history: [],
  scaleUpEvents: [],
  scaleDownEvents: [],
};

describe('decideScale (reconcileAutoscaler)', () => {
  it.each([
    ['busy: 1 → 3', { metricReplicas: 3 }, 3, true, 'cpu resource utilization (percentage of request) above target'],
    ['capped by maxReplicas', { current: 3, metricReplicas: 9 }, 5, true, 'cpu resource utilization (percentage of request) above target'],
    ['idle within the window: held at the recent highest', { current: 3, metricReplicas: 1, history: [{ timestamp: T - 60_000, replicas: 3 }] }, 3, false, ''],
    ['idle after the window: down to the recommendation', { current: 3, metricReplicas: 1, history: [{ timestamp: T - 301_000, replicas: 3 }] }, 1, true, 'All metrics below target'],
    ['above maxReplicas: brought back', { current: 7, metricReplicas: 7 }, 5, true, 'Current number of replicas above Spec.MaxReplicas'],
    ['below minReplicas: brought up', { current: 1, minReplicas: 2, metricReplicas: 1 }, 2, true, 'Current number of replicas below Spec.MinReplicas'],
    ['no metrics: unchanged', { current: 2, metricReplicas: undefined }, 2, false, ''],
    [
      'with the default behavior: the 300 s window holds a scale-down',
      { current: 4, metricReplicas: 1, behavior: withDefaultBehavior(undefined), history: [{ timestamp: T - 100_000, replicas: 4 }] },
      4,
      false,
      '',
    ],
  ])('%s', (_n, over, desired, rescale, reason) => {
    const d = decideScale({ ...base, ...over });
    expect(d.desired).toBe(desired);
    expect(d.rescale).toBe(rescale);
    if (rescale) expect(d.reason).toBe(reason);
  });

  it('a target scaled to zero is left alone: ScalingActive False ScalingDisabled', () => {
    expect(decideScale({ ...base, current: 0, metricReplicas: 3 })).toMatchObject({
      desired: 0,
      rescale: false,
      scalingActive: { status: 'False', reason: 'ScalingDisabled', message: 'scaling is disabled since the replica count of the target is zero' },
    });
  });

  it('sets AbleToScale and ScalingLimited as upstream words them', () => {
    const held = decideScale({ ...base, current: 3, metricReplicas: 1, history: [{ timestamp: T - 60_000, replicas: 3 }] });
    expect(held.ableToScale).toEqual({ status: 'True', reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' });
    const capped = decideScale({ ...base, current: 3, metricReplicas: 9 });
    expect(capped.scalingLimited).toEqual({ status: 'True', reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' });
  });
});

describe('the rules without a behavior', () => {
  it('scale up at most to max(2×current, 4)', () => {
    expect(limitWithoutBehavior(1, 10, 1, 20)).toEqual({ replicas: 4, reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' });
    expect(limitWithoutBehavior(5, 30, 1, 20)).toEqual({ replicas: 10, reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' });
    expect(limitWithoutBehavior(2, 0, 1, 20).reason).toBe('TooFewReplicas');
  });
  it('records the recommendation over one older than the window', () => {
    expect(stabilizeWithoutBehavior(T, 2, [{ timestamp: T - 400_000, replicas: 9 }]).history).toEqual([{ timestamp: T, replicas: 2 }]);
  });
});
