import { describe, expect, it } from 'vitest';
import type { KubeObject, PodDisruptionBudget } from '../index.js';
import { validateObject } from '../index.js';
import { fieldErrorMessage } from '../meta/status.js';

const messages = (errs: ReturnType<typeof validateObject>): string[] => errs.map((e) => `${e.field}: ${fieldErrorMessage(e)}`);
const pdb = (spec: PodDisruptionBudget['spec'], extra: Partial<PodDisruptionBudget> = {}): PodDisruptionBudget => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default', resourceVersion: '1' },
  spec,
  ...extra,
});

describe('PodDisruptionBudget validation (pkg/apis/policy/validation)', () => {
  it.each([
    ['minAvailable as a number', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } }, []],
    ['maxUnavailable as a percentage', { maxUnavailable: '25%' }, []],
    ['neither (every eviction is checked against zero)', { selector: {} }, []],
    ['a negative minAvailable', { minAvailable: -1 }, ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']],
    ['over 100%', { maxUnavailable: '120%' }, ['spec.maxUnavailable: Invalid value: "120%": must not be greater than 100%']],
    [
      'a percentage without %',
      { minAvailable: 'half' },
      [`spec.minAvailable: Invalid value: "half": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`],
    ],
    [
      'an unknown eviction policy',
      { minAvailable: 1, unhealthyPodEvictionPolicy: 'Sometimes' },
      ['spec.unhealthyPodEvictionPolicy: Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"'],
    ],
  ] as const)('%s', (_name, spec, want) => {
    expect(messages(validateObject(pdb(spec as PodDisruptionBudget['spec'])))).toEqual(want);
  });

  it('refuses both minAvailable and maxUnavailable with the spec printed as Go does', () => {
    const [msg] = messages(validateObject(pdb({ minAvailable: 1, maxUnavailable: 1 })));
    expect(msg).toMatch(
      /^spec: Invalid value: policy\.PodDisruptionBudgetSpec\{MinAvailable:\(\*intstr\.IntOrString\)\(0x[0-9a-f]+\), Selector:\(\*v1\.LabelSelector\)\(nil\), .*\}: minAvailable and maxUnavailable cannot be both set$/,
    );
  });

  it('a status update keeps the counts nonnegative and conditions well formed', () => {
    const old = pdb({ minAvailable: 1 });
    const next = pdb(
      { minAvailable: 1 },
      {
        status: {
          disruptionsAllowed: -1,
          currentHealthy: 0,
          desiredHealthy: 0,
          expectedPods: 0,
          conditions: [{ type: 'DisruptionAllowed', status: 'Maybe' as 'True', reason: 'SufficientPods', message: '', lastTransitionTime: '' }],
        },
      },
    );
    expect(messages(validateObject(next as KubeObject, old as KubeObject, 'status'))).toEqual([
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      'status.conditions[0].lastTransitionTime: Required value: must be set',
      'status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});

describe('PriorityClass validation (pkg/apis/scheduling/validation)', () => {
  const pc = (name: string, value: number, extra: Record<string, unknown> = {}) =>
    ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name, resourceVersion: '1' }, value, ...extra }) as KubeObject;
  it.each<[string, KubeObject, string[]]>([
    ['a user class', pc('high', 1000), []],
    ['above the user limit', pc('huge', 1_000_000_001), ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']],
    ['the system class as defined', pc('system-node-critical', 2000001000), []],
    [
      'a system class with another value',
      pc('system-cluster-critical', 5),
      ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-cluster-critical PriorityClass must be 2000000000"],
    ],
    [
      'an unknown system- name',
      pc('system-mine', 5),
      ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class"],
    ],
    ['an unknown preemption policy', pc('p', 1, { preemptionPolicy: 'Sometimes' }), ['preemptionPolicy: Unsupported value: "Sometimes": supported values: "Never", "PreemptLowerPriority"']],
  ])('%s', (_n, obj, want) => expect(messages(validateObject(obj))).toEqual(want));

  it('value and preemptionPolicy are immutable', () => {
    expect(messages(validateObject(pc('p', 2, { preemptionPolicy: 'Never' }), pc('p', 1, { preemptionPolicy: 'PreemptLowerPriority' })))).toEqual([
      'value: Forbidden: may not be changed in an update.',
      'preemptionPolicy: Invalid value: "Never": field is immutable',
    ]);
  });
});
