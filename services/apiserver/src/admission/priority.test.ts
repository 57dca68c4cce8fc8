import { describe, expect, it } from 'vitest';
import type { Pod, PriorityClass } from '@kubelab/api';
import { defaultPriorityClass, resolvePodPriority } from './priority.js';

const pc = (name: string, value: number, extra: Partial<PriorityClass> = {}): PriorityClass => ({ metadata: { name }, value, preemptionPolicy: 'PreemptLowerPriority', ...extra });
const pod = (spec: Partial<Pod['spec']> = {}): Pod => ({ metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'x' }], ...spec } });

describe('Priority admission (plugin/pkg/admission/priority)', () => {
  it('resolves a named class into priority and preemptionPolicy', () => {
    const p = pod({ priorityClassName: 'high' });
    expect(resolvePodPriority(p, pc('high', 1000, { preemptionPolicy: 'Never' }), undefined)).toBeUndefined();
    expect(p.spec).toMatchObject({ priorityClassName: 'high', priority: 1000, preemptionPolicy: 'Never' });
  });

  it('gives a pod without a class the global default, else priority 0', () => {
    const p = pod();
    expect(resolvePodPriority(p, undefined, pc('normal', 50, { globalDefault: true }))).toBeUndefined();
    expect(p.spec).toMatchObject({ priorityClassName: 'normal', priority: 50, preemptionPolicy: 'PreemptLowerPriority' });
    const q = pod();
    resolvePodPriority(q, undefined, undefined);
    expect(q.spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
    expect(q.spec?.priorityClassName).toBeUndefined();
  });

  it.each<[string, Pod, PriorityClass | undefined, string]>([
    ['an unknown class', pod({ priorityClassName: 'nope' }), undefined, 'no PriorityClass with name nope was found'],
    [
      'a priority other than the class’s',
      pod({ priorityClassName: 'high', priority: 7 }),
      pc('high', 1000),
      'the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name',
    ],
    [
      'a preemption policy other than the class’s',
      pod({ priorityClassName: 'high', preemptionPolicy: 'Never' }),
      pc('high', 1000),
      'the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
    ],
  ])('refuses %s', (_n, p, found, want) => expect(resolvePodPriority(p, found, undefined)).toBe(want));

  it('the global default with the highest value wins', () => {
    expect(defaultPriorityClass([pc('a', 5, { globalDefault: true }), pc('b', 9, { globalDefault: true }), pc('c', 100)])?.metadata.name).toBe('b');
    expect(defaultPriorityClass([pc('c', 100)])).toBeUndefined();
  });
});
