import { describe, expect, it } from 'vitest';
import type { KubeObject, ResourceQuota, ResourceQuotaSpec } from '../index.js';
import { validateObject } from '../index.js';
import { fieldErrorMessage } from '../meta/status.js';

const messages = (errs: ReturnType<typeof validateObject>): string[] => errs.map((e) => `${e.field}: ${fieldErrorMessage(e)}`);
const quota = (spec: ResourceQuotaSpec, status?: ResourceQuota['status']): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'default', resourceVersion: '1' }, spec, ...(status ? { status } : {}) }) as KubeObject;

describe('ResourceQuota validation', () => {
  it.each<[string, ResourceQuotaSpec, string[]]>([
    [
      'standard resources and object counts',
      { hard: { pods: '2', 'requests.cpu': '1', 'limits.memory': '1Gi', 'count/deployments.apps': '3', 'gold.storageclass.storage.k8s.io/requests.storage': '10Gi' } },
      [],
    ],
    ['a negative quantity', { hard: { 'requests.cpu': '-1' } }, ['spec.hard[requests.cpu]: Invalid value: "-1": must be greater than or equal to 0']],
    ['a fractional object count', { hard: { pods: '1500m' } }, ['spec.hard[pods]: Invalid value: 1500m: must be an integer']],
    ['an unknown bare name', { hard: { cpus: '1' } }, ['spec.hard[cpus]: Invalid value: "cpus": must be a standard resource type or fully qualified']],
    ['a resource quota cannot track', { hard: { storage: '1Gi' } }, ['spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota']],
    ['scopes for pods', { hard: { pods: '2', 'limits.cpu': '1' }, scopes: ['NotTerminating', 'NotBestEffort'] }, []],
    ['an unknown scope', { hard: { pods: '2' }, scopes: ['Sometimes'] }, ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"Sometimes"}: unsupported scope']],
    [
      'BestEffort limits only pods',
      { hard: { 'requests.cpu': '1' }, scopes: ['BestEffort'] },
      ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource'],
    ],
    ['a scope over services', { hard: { services: '1' }, scopes: ['Terminating'] }, ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"Terminating"}: unsupported scope applied to resource']],
    [
      'conflicting scopes',
      { hard: { pods: '1' }, scopes: ['Terminating', 'NotTerminating'] },
      ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"Terminating", "NotTerminating"}: conflicting scopes'],
    ],
    [
      'an In selector without values',
      { hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In' }] } },
      ["spec.scopeSelector.matchExpressions[0].values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"],
    ],
  ])('%s', (_name, spec, want) => {
    expect(messages(validateObject(quota(spec)))).toEqual(want);
  });

  it('scopes are immutable', () => {
    const old = quota({ hard: { pods: '1' }, scopes: ['Terminating'] });
    const next = quota({ hard: { pods: '1' }, scopes: ['NotTerminating'] });
    expect(messages(validateObject(next, old))).toEqual(['spec.scopes: Invalid value: []core.ResourceQuotaScope{"NotTerminating"}: field is immutable']);
  });

  it('status lists are checked on a status update', () => {
    const old = quota({ hard: { pods: '1' } });
    const next = quota({ hard: { pods: '1' } }, { hard: { pods: '1' }, used: { pods: '-1' } });
    expect(messages(validateObject(next, old, 'status'))).toEqual(['status.used[pods]: Invalid value: "-1": must be greater than or equal to 0']);
  });
});
