import { describe, expect, it } from 'vitest';
import { setDefaults, validateObject, type KubeObject } from '../../index.js';
import { fieldErrorMessage } from '../../meta/status.js';
import { applyLimitRangeDefaults, limitRangeViolations } from './limitrange.js';
import type { LimitRange, LimitRangeItem, Pod } from './types.js';

const lr = (...limits: LimitRangeItem[]): LimitRange => {
  const o: LimitRange = { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lim', namespace: 'default' }, spec: { limits } };
  setDefaults(o as KubeObject);
  return o;
};
const pod = (...resources: { requests?: Record<string, string>; limits?: Record<string, string> }[]): Pod => ({
  metadata: { name: 'p', namespace: 'default' },
  spec: { containers: resources.map((r, i) => ({ name: `c${i}`, image: 'x', resources: r })) },
});

describe('LimitRange defaulting and validation', () => {
  it('a Container item defaults its limit to max and its request to the limit', () => {
    expect(lr({ type: 'Container', max: { cpu: '1' }, min: { memory: '64Mi' } }).spec!.limits[0]).toEqual({
      type: 'Container',
      max: { cpu: '1' },
      min: { memory: '64Mi' },
      default: { cpu: '1' },
      defaultRequest: { cpu: '1', memory: '64Mi' },
    });
  });
  it.each<[string, LimitRangeItem, string[]]>([
    [
      'min above max',
      { type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } },
      [
        'spec.limits[0].min[cpu]: Invalid value: 2: min value 2 is greater than max value 1',
        'spec.limits[0].defaultRequest[cpu]: Invalid value: 1: min value 2 is greater than default request value 1',
        'spec.limits[0].default[cpu]: Invalid value: 2: min value 2 is greater than default value 1',
      ],
    ],
    ['pod defaults', { type: 'Pod', default: { cpu: '1' } }, ["spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'"]],
    [
      'a request above the default limit',
      { type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '1' } },
      ['spec.limits[0].defaultRequest[cpu]: Invalid value: 1: default request value 1 is greater than default limit value 500m'],
    ],
  ])('%s', (_n, item, want) => {
    expect(validateObject(lr(item) as KubeObject).map((e) => `${e.field}: ${fieldErrorMessage(e)}`)).toEqual(want);
  });
});

describe('LimitRanger (plugin/pkg/admission/limitranger)', () => {
  const ranges = [lr({ type: 'Container', default: { cpu: '500m', memory: '128Mi' }, defaultRequest: { cpu: '100m' }, max: { cpu: '1' } })];
  it('fills what a container leaves out and says so in the annotation', () => {
    // Pod defaulting runs first: the memory limit is the memory request.
    const p = { apiVersion: 'v1', kind: 'Pod', ...pod({ limits: { memory: '256Mi' } }) } as Pod;
    setDefaults(p as KubeObject);
    applyLimitRangeDefaults(p, ranges);
    expect(p.spec!.containers[0]!.resources).toEqual({ limits: { memory: '256Mi', cpu: '500m' }, requests: { memory: '256Mi', cpu: '100m' } });
    expect(p.metadata.annotations).toEqual({ 'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu request for container c0; cpu limit for container c0' });
  });
  it.each<[string, Pod, string[]]>([
    ['within bounds', pod({ requests: { cpu: '100m' }, limits: { cpu: '1' } }), []],
    ['over max', pod({ requests: { cpu: '100m' }, limits: { cpu: '2' } }), ['maximum cpu usage per Container is 1, but limit is 2']],
    ['no limit under a max', pod({ requests: { cpu: '100m' } }), ['maximum cpu usage per Container is 1.  No limit is specified']],
  ])('%s', (_n, p, want) => expect(limitRangeViolations(p, ranges)).toEqual(want));
  it('Pod items bound the sum of the containers', () => {
    const podMax = [lr({ type: 'Pod', max: { memory: '1Gi' } })];
    expect(limitRangeViolations(pod({ limits: { memory: '600Mi' } }, { limits: { memory: '600Mi' } }), podMax)).toEqual(['maximum memory usage per Pod is 1Gi, but limit is 1200Mi']);
    expect(limitRangeViolations(pod({ requests: { cpu: '1' } }, {}), [lr({ type: 'Container', min: { cpu: '100m' } })])).toEqual(['minimum cpu usage per Container is 100m.  No request is specified']);
  });
});
