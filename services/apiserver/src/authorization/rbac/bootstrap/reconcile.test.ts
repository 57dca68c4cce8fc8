import { describe, expect, it } from 'vitest';
import type { ClusterRole, ClusterRoleBinding } from '@kubelab/api';
import { reconcileBinding, reconcileRole } from './reconcile.js';

const DEFAULTS = { labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' }, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } };
const expectedRole: ClusterRole = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'r', ...DEFAULTS },
  rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
};
const stored = (c: Partial<ClusterRole> = {}, meta: Partial<ClusterRole['metadata']> = {}): ClusterRole => ({
  ...JSON.parse(JSON.stringify(expectedRole)),
  ...c,
  metadata: { ...JSON.parse(JSON.stringify(expectedRole.metadata)), resourceVersion: '7', uid: 'u1', ...meta },
});

describe('reconcileRole (upstream computeReconciledRole, union)', () => {
  it('creates a missing role', () => {
    expect(reconcileRole(expectedRole, undefined)).toEqual({ op: 'create', obj: expectedRole });
  });
  it('leaves an unchanged role alone, and one with more rules or labels', () => {
    expect(reconcileRole(expectedRole, stored()).op).toBe('none');
    const more = stored({ rules: [...expectedRole.rules!, { verbs: ['delete'], apiGroups: [''], resources: ['pods'] }] }, { labels: { ...DEFAULTS.labels, team: 'a' } });
    expect(reconcileRole(expectedRole, more).op).toBe('none');
  });
  it('adds the missing pieces of a rule, broken down', () => {
    const r = reconcileRole(expectedRole, stored({ rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }));
    expect(r).toEqual({
      op: 'update',
      obj: stored({
        rules: [
          { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
          { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
        ],
      }),
    });
  });
  it('adds missing labels and annotations, keeping the stored values', () => {
    const r = reconcileRole(expectedRole, stored({}, { labels: { 'kubernetes.io/bootstrapping': 'mine' }, annotations: {} }));
    expect(r.op === 'update' && r.obj.metadata).toEqual({
      name: 'r',
      resourceVersion: '7',
      uid: 'u1',
      labels: { 'kubernetes.io/bootstrapping': 'mine' },
      annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
    });
  });
  it('autoupdate "false" protects a role', () => {
    expect(reconcileRole(expectedRole, stored({ rules: [] }, { annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }))).toEqual({ op: 'protected' });
  });
  it('adds missing aggregation selectors and leaves aggregated rules alone', () => {
    const sel = { matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } };
    const want: ClusterRole = { ...expectedRole, rules: undefined, aggregationRule: { clusterRoleSelectors: [sel] } };
    const filled = stored({ rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }], aggregationRule: { clusterRoleSelectors: [sel] } });
    expect(reconcileRole(want, filled).op).toBe('none');
    const other = { matchLabels: { mine: 'true' } };
    const r = reconcileRole(want, stored({ aggregationRule: { clusterRoleSelectors: [other] } }));
    expect(r.op === 'update' && r.obj.aggregationRule).toEqual({ clusterRoleSelectors: [other, sel] });
  });
});

describe('reconcileBinding (upstream computeReconciledRoleBinding, union)', () => {
  const want: ClusterRoleBinding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'b', ...DEFAULTS },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
    subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'g' }],
  };
  const have = (b: Partial<ClusterRoleBinding>): ClusterRoleBinding => ({ ...JSON.parse(JSON.stringify(want)), metadata: { ...want.metadata, resourceVersion: '3' }, ...b });
  it('keeps extra subjects and adds missing ones', () => {
    expect(reconcileBinding(want, have({ subjects: [...want.subjects!, { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'u' }] })).op).toBe('none');
    const r = reconcileBinding(want, have({ subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'u' }] }));
    expect(r.op === 'update' && r.obj.subjects).toEqual([{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'u' }, want.subjects![0]]);
  });
  it('a changed roleRef is a recreate with the default roleRef', () => {
    const r = reconcileBinding(want, have({ roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'other' } }));
    expect(r.op).toBe('recreate');
    expect(r.op === 'recreate' && [r.obj.roleRef.name, r.obj.metadata.resourceVersion]).toEqual(['r', undefined]);
  });
});
