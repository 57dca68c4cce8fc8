import { describe, expect, it } from 'vitest';
import { DEFAULT_SCALE_DOWN, normalizeWithBehaviors, rescaleMessage, rescaleReason, scaleDownLimit, scaleUpLimit, withDefaultBehavior, type NormalizeInput } from './behavior.js';

const T = 1_000_000;
const base: NormalizeInput = { now: T, current: 1, desired: 1, minReplicas: 1, maxReplicas: 10, behavior: withDefaultBehavior(undefined), history: [], scaleUpEvents: [], scaleDownEvents: [] };

describe('normalizeWithBehaviors (default behavior)', () => {
  it.each([
    ['scale-up at once', { current: 1, desired: 3 }, 3, ['ReadyForNewScale', 'False', 'DesiredWithinRange']],
    ['scale-up capped by maxReplicas', { current: 4, desired: 20 }, 8, ['ReadyForNewScale', 'True', 'ScaleUpLimit']],
    ['scale-up capped by maxReplicas under the rate', { current: 8, desired: 20 }, 10, ['ReadyForNewScale', 'True', 'TooManyReplicas']],
    ['scale-up limited to 4 pods or 100% per 15 s', { current: 2, desired: 9, maxReplicas: 20 }, 6, ['ReadyForNewScale', 'True', 'ScaleUpLimit']],
    [
      'scale-up counts what was added in the period',
      { current: 4, desired: 9, maxReplicas: 20, scaleUpEvents: [{ timestamp: T - 5_000, change: 2 }] },
      6,
      ['ReadyForNewScale', 'True', 'ScaleUpLimit'],
    ],
    ['scale-down held by the 300 s window', { current: 5, desired: 1, history: [{ timestamp: T - 120_000, replicas: 5 }] }, 5, ['ScaleDownStabilized', 'False', 'DesiredWithinRange']],
    ['scale-down once the window passed', { current: 5, desired: 1, history: [{ timestamp: T - 301_000, replicas: 5 }] }, 1, ['ReadyForNewScale', 'False', 'DesiredWithinRange']],
    ['scale-down stopped at minReplicas', { current: 5, desired: 1, minReplicas: 2 }, 2, ['ReadyForNewScale', 'True', 'TooFewReplicas']],
  ])('%s', (_n, over, replicas, [able, limitedStatus, limitedReason]) => {
    const r = normalizeWithBehaviors({ ...base, ...over });
    expect(r.replicas).toBe(replicas);
    expect(r.ableToScale.reason).toBe(able);
    expect([r.scalingLimited.status, r.scalingLimited.reason]).toEqual([limitedStatus, limitedReason]);
  });

  it('records the recommendation, replacing one older than both windows', () => {
    const r = normalizeWithBehaviors({
      ...base,
      desired: 3,
      history: [
        { timestamp: T - 400_000, replicas: 7 },
        { timestamp: T - 10_000, replicas: 2 },
      ],
    });
    expect(r.history).toEqual([
      { timestamp: T, replicas: 3 },
      { timestamp: T - 10_000, replicas: 2 },
    ]);
  });
});

describe('the policies', () => {
  it('Min picks the smallest change, Disabled none', () => {
    const rules = {
      stabilizationWindowSeconds: 0,
      selectPolicy: 'Min' as const,
      policies: [
        { type: 'Pods' as const, value: 1, periodSeconds: 60 },
        { type: 'Percent' as const, value: 50, periodSeconds: 60 },
      ],
    };
    expect(scaleUpLimit(T, 10, [], [], rules)).toBe(11);
    expect(scaleDownLimit(T, 10, [], [], rules)).toBe(9);
    expect(scaleUpLimit(T, 10, [], [], { ...rules, selectPolicy: 'Disabled' })).toBe(10);
    expect(scaleDownLimit(T, 10, [], [], DEFAULT_SCALE_DOWN)).toBe(0);
  });
  it('fills the defaults per field', () => {
    expect(withDefaultBehavior({ scaleDown: { stabilizationWindowSeconds: 60 } }).scaleDown).toEqual({ ...DEFAULT_SCALE_DOWN, stabilizationWindowSeconds: 60 });
  });
});

describe('rescale event texts', () => {
  it('names why the size changed', () => {
    expect(rescaleMessage(3, rescaleReason(1, 3, 1, 5, 'cpu resource utilization (percentage of request)'))).toBe('New size: 3; reason: cpu resource utilization (percentage of request) above target');
    expect(rescaleReason(3, 1, 1, 5, 'cpu')).toBe('All metrics below target');
    expect(rescaleReason(7, 5, 1, 5, 'cpu')).toBe('Current number of replicas above Spec.MaxReplicas');
    expect(rescaleReason(0, 1, 1, 5, 'cpu')).toBe('Current number of replicas below Spec.MinReplicas');
  });
});
