import { describe, expect, it } from 'vitest';
import type { Container, Pod, ResourceQuota } from '../core/v1/types.js';
import type { KubeObject } from '../meta/types.js';
import { calculateQuotaUsage, objectUsage, podQuotaConstraints, podUsage, quotaMatches, toResourceList } from './usage.js';

const NOW = new Date('2025-06-01T12:00:00Z');
const c = (name: string, requests?: Record<string, string>, limits?: Record<string, string>): Container => ({
  name,
  image: 'nginx',
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
});
const pod = (name: string, containers: Container[], extra: Partial<Pod['spec']> = {}, status?: Pod['status']): Pod => ({
  metadata: { name, namespace: 'default' },
  spec: { containers, ...extra },
  ...(status ? { status } : {}),
});
const quota = (hard: Record<string, string>, scopes?: string[]): ResourceQuota => ({ metadata: { name: 'q', namespace: 'default' }, spec: { hard, ...(scopes ? { scopes } : {}) } });

describe('pod usage (PodUsageFunc)', () => {
  it.each<[string, Pod, Record<string, string>]>([
    ['no resources: pods and the count', pod('a', [c('a')]), { 'count/pods': '1', pods: '1' }],
    [
      'requests as requests.* and bare cpu/memory, limits as limits.*',
      pod('a', [c('a', { cpu: '100m', memory: '64Mi' }, { cpu: '200m', memory: '128Mi' })]),
      { 'count/pods': '1', cpu: '100m', 'limits.cpu': '200m', 'limits.memory': '128Mi', memory: '64Mi', pods: '1', 'requests.cpu': '100m', 'requests.memory': '64Mi' },
    ],
    ['containers add up', pod('a', [c('a', { cpu: '100m' }), c('b', { cpu: '250m' })]), { 'count/pods': '1', cpu: '350m', pods: '1', 'requests.cpu': '350m' }],
    [
      'an init container counts when larger than the containers',
      pod('a', [c('a', { cpu: '100m' }, { cpu: '100m' })], { initContainers: [c('init', { cpu: '1' }, { cpu: '2' })] }),
      { 'count/pods': '1', cpu: '1', 'limits.cpu': '2', pods: '1', 'requests.cpu': '1' },
    ],
    ['a Succeeded pod costs only its object count', pod('a', [c('a', { cpu: '1' })], {}, { phase: 'Succeeded' }), { 'count/pods': '1' }],
    ['a Failed pod too', pod('a', [c('a', { cpu: '1' })], {}, { phase: 'Failed' }), { 'count/pods': '1' }],
  ])('%s', (_name, p, want) => {
    expect(toResourceList(podUsage(p, NOW))).toEqual(want);
  });

  it('a pod past its deletion grace period no longer counts', () => {
    const p = pod('a', [c('a', { cpu: '1' })]);
    p.metadata.deletionTimestamp = '2025-06-01T11:59:00Z';
    p.metadata.deletionGracePeriodSeconds = 30;
    expect(toResourceList(podUsage(p, NOW))).toEqual({ 'count/pods': '1' });
    p.metadata.deletionGracePeriodSeconds = 300;
    expect(toResourceList(podUsage(p, NOW)).pods).toBe('1');
  });
});

describe('object usage of the other evaluators', () => {
  it.each<[string, string, string, object, Record<string, string>]>([
    ['a ConfigMap', '', 'configmaps', {}, { configmaps: '1', 'count/configmaps': '1' }],
    [
      'a NodePort Service',
      '',
      'services',
      { spec: { type: 'NodePort', ports: [{ port: 80 }, { port: 443 }] } },
      { 'count/services': '1', services: '1', 'services.loadbalancers': '0', 'services.nodeports': '2' },
    ],
    [
      'a claim of a class',
      '',
      'persistentvolumeclaims',
      { spec: { storageClassName: 'gold', resources: { requests: { storage: '1Gi' } } } },
      {
        'count/persistentvolumeclaims': '1',
        'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
        'gold.storageclass.storage.k8s.io/requests.storage': '1Gi',
        persistentvolumeclaims: '1',
        'requests.storage': '1Gi',
      },
    ],
    ['a Deployment: its object count only', 'apps', 'deployments', {}, { 'count/deployments.apps': '1' }],
  ])('%s', (_name, group, resource, body, want) => {
    expect(toResourceList(objectUsage(group, resource, { metadata: { name: 'x' }, ...body } as KubeObject, NOW))).toEqual(want);
  });
});

describe('quota matching and constraints', () => {
  it.each<[string, ResourceQuota, Pod, boolean]>([
    ['a pods quota', quota({ pods: '2' }), pod('a', [c('a')]), true],
    ['a quota on services only', quota({ services: '2' }), pod('a', [c('a')]), false],
    ['BestEffort takes a pod without resources', quota({ pods: '2' }, ['BestEffort']), pod('a', [c('a')]), true],
    ['BestEffort leaves one with requests', quota({ pods: '2' }, ['BestEffort']), pod('a', [c('a', { cpu: '1' })]), false],
    ['Terminating: an active deadline', quota({ pods: '2' }, ['Terminating']), pod('a', [c('a')], { activeDeadlineSeconds: 60 }), true],
    ['NotTerminating: none', quota({ pods: '2' }, ['NotTerminating']), pod('a', [c('a')], { activeDeadlineSeconds: 60 }), false],
  ])('%s', (_name, q, p, want) => {
    expect(quotaMatches(q, q.spec!.hard, '', 'pods', p)).toBe(want);
  });

  it.each<[string, string[], Pod, string | undefined]>([
    ['nothing constrained', ['pods'], pod('a', [c('a')]), undefined],
    ['a limit quota needs every container to limit', ['pods', 'limits.cpu'], pod('x', [c('x', { cpu: '100m' })]), 'must specify limits.cpu for: x'],
    [
      'several resources and containers, sorted',
      ['requests.memory', 'limits.cpu'],
      pod('x', [c('b', { cpu: '100m' }), c('a', { memory: '1Mi' }, { cpu: '1' })]),
      'must specify limits.cpu for: b; requests.memory for: b',
    ],
    ['bare cpu is a request', ['cpu'], pod('x', [c('x', undefined, { cpu: '1' })]), 'must specify cpu for: x'],
  ])('%s', (_name, required, p, want) => {
    expect(podQuotaConstraints(required, p)).toBe(want);
  });
});

describe('the controller recount (CalculateUsage)', () => {
  it('zero for each tracked hard resource, then the sum of the objects in scope; terminal pods only in count/pods', () => {
    const pods = [pod('a', [c('a', { cpu: '100m' }, { memory: '1Gi' })]), pod('b', [c('b', { cpu: '250m' })]), pod('done', [c('d', { cpu: '1' })], {}, { phase: 'Succeeded' })];
    const q = quota({ pods: '5', 'requests.cpu': '2', 'limits.memory': '4Gi', 'requests.memory': '1Gi', 'count/pods': '10', configmaps: '3', 'count/deployments.apps': '1' });
    const used = calculateQuotaUsage(
      q,
      [
        { group: '', resource: 'pods', items: pods },
        { group: '', resource: 'configmaps', items: [] },
      ],
      NOW,
    );
    expect(toResourceList(used)).toEqual({ configmaps: '0', 'count/pods': '3', 'limits.memory': '1Gi', pods: '2', 'requests.cpu': '350m', 'requests.memory': '0' });
  });

  it('a scoped quota counts only its pods', () => {
    const pods = [pod('a', [c('a')]), pod('b', [c('b', { cpu: '100m' })])];
    expect(toResourceList(calculateQuotaUsage(quota({ pods: '5' }, ['BestEffort']), [{ group: '', resource: 'pods', items: pods }], NOW))).toEqual({ pods: '1' });
  });
});
