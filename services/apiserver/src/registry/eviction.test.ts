import { describe, expect, it } from 'vitest';
import { StatusError, type Pod, type PodDisruptionBudget } from '@kubelab/api';
import { budgetsFor, canIgnoreBudget, checkAndDecrement, unreadyPodMayGo } from './eviction.js';

const NOW = '2026-01-01T00:00:00Z';
const pdb = (
  status: Partial<NonNullable<PodDisruptionBudget['status']>>,
  spec: PodDisruptionBudget['spec'] = { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
  generation = 1,
): PodDisruptionBudget => ({
  metadata: { name: 'web-pdb', namespace: 'default', generation },
  spec,
  status: { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2, ...status },
});
const pod = (ready: boolean, phase = 'Running', labels = { app: 'web' }): Pod =>
  ({ metadata: { name: 'web-1', namespace: 'default', labels }, spec: { containers: [] }, status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } }) as Pod;

function refusal(f: () => unknown): { code: number; message: string; causes: unknown } {
  try {
    f();
  } catch (e) {
    if (!StatusError.isInstance(e)) throw e;
    return { code: e.code, message: e.status.message!, causes: e.status.details?.causes };
  }
  throw new Error('not refused');
}

describe('checkAndDecrement (the eviction subresource against one budget)', () => {
  it('takes one allowed disruption, records the pod and keeps DisruptionAllowed until none is left', () => {
    const one = checkAndDecrement('web-1', pdb({ disruptionsAllowed: 2 }), NOW).status!;
    expect(one).toMatchObject({ disruptionsAllowed: 1, disruptedPods: { 'web-1': NOW } });
    expect(one.conditions).toBeUndefined();
    const none = checkAndDecrement('web-1', pdb({ disruptionsAllowed: 1 }), NOW).status!;
    expect(none.disruptionsAllowed).toBe(0);
    expect(none.conditions).toEqual([{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', lastTransitionTime: NOW, observedGeneration: 1 }]);
  });

  it('refuses with 429 and the budget as the cause when none is allowed', () => {
    expect(refusal(() => checkAndDecrement('web-1', pdb({ disruptionsAllowed: 0, currentHealthy: 1 }), NOW))).toEqual({
      code: 429,
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web-pdb needs 1 healthy pods and has 1 currently' }],
    });
  });

  it('refuses while the controller has not seen the budget’s generation', () => {
    expect(refusal(() => checkAndDecrement('web-1', pdb({ disruptionsAllowed: 3 }, undefined, 2), NOW)).causes).toEqual([
      { reason: 'DisruptionBudget', message: 'The disruption budget web-pdb is still being processed by the server.' },
    ]);
  });

  it('forbids a negative count and a disruptedPods map past its bound', () => {
    expect(refusal(() => checkAndDecrement('web-1', pdb({ disruptionsAllowed: -1 }), NOW)).message).toBe('poddisruptionbudget.policy "web-pdb" is forbidden: pdb disruptions allowed is negative');
    const many = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`p${i}`, NOW]));
    expect(refusal(() => checkAndDecrement('web-1', pdb({ disruptionsAllowed: 1, disruptedPods: many }), NOW)).code).toBe(403);
  });
});

describe('which budgets and pods count', () => {
  it('matches budgets by selector; an empty one selects all, a missing one none', () => {
    const all = pdb({}, { minAvailable: 1, selector: {} });
    const none = pdb({}, { minAvailable: 1 });
    const other = pdb({}, { minAvailable: 1, selector: { matchLabels: { app: 'db' } } });
    expect(budgetsFor(pod(true), [all, none, other])).toEqual([all]);
  });

  it.each([
    ['running', pod(true), false],
    ['pending', pod(false, 'Pending'), true],
    ['succeeded', pod(false, 'Succeeded'), true],
  ])('a %s pod ignores budgets: %s', (_n, p, want) => expect(canIgnoreBudget(p)).toBe(want));

  it.each<[string, Pod, PodDisruptionBudget, boolean]>([
    ['a ready pod always uses the budget', pod(true), pdb({ currentHealthy: 5, desiredHealthy: 1 }), false],
    ['an unready pod of a met budget goes freely (IfHealthyBudget)', pod(false), pdb({ currentHealthy: 2, desiredHealthy: 2 }), true],
    ['an unready pod of an unmet budget uses it', pod(false), pdb({ currentHealthy: 1, desiredHealthy: 2 }), false],
    ['AlwaysAllow lets any unready pod go', pod(false), pdb({ currentHealthy: 0, desiredHealthy: 2 }, { minAvailable: 2, selector: {}, unhealthyPodEvictionPolicy: 'AlwaysAllow' }), true],
  ])('%s', (_n, p, b, want) => expect(unreadyPodMayGo(p, b)).toBe(want));
});
