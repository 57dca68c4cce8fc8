import { describe, expect, it } from 'vitest';
import { setDefaults, validateObject, type KubeObject } from '@kubelab/api';
import { bootstrapPolicy } from './policy.js';

const all = (): KubeObject[] => {
  const p = bootstrapPolicy();
  return [...p.clusterRoles, ...p.clusterRoleBindings, ...p.roles, ...p.roleBindings];
};
const key = (o: KubeObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

describe('the bootstrap policy data', () => {
  it('every object is valid as the apiserver checks it, and named once', () => {
    const problems = all().flatMap((o) => {
      const c = JSON.parse(JSON.stringify(o)) as KubeObject;
      setDefaults(c);
      return validateObject(c).map((e) => `${key(o)}: ${e.field}: ${e.type} ${e.detail ?? ''}`);
    });
    expect(problems).toEqual([]);
    const keys = all().map(key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('every binding refers to a role of the policy', () => {
    const p = bootstrapPolicy();
    const clusterRoles = new Set(p.clusterRoles.map((r) => r.metadata.name));
    const roles = new Set(p.roles.map((r) => `${r.metadata.namespace}/${r.metadata.name}`));
    const dangling = [...p.clusterRoleBindings, ...p.roleBindings].filter((b) =>
      b.roleRef.kind === 'ClusterRole' ? !clusterRoles.has(b.roleRef.name) : !roles.has(`${b.metadata.namespace}/${b.roleRef.name}`),
    );
    expect(dangling.map(key)).toEqual([]);
  });

  it("has every controller role of upstream's default feature set, each bound to its ServiceAccount in kube-system", () => {
    const p = bootstrapPolicy();
    const controllers = p.clusterRoles.map((r) => r.metadata.name!).filter((n) => n.startsWith('system:controller:'));
    // controller_policy.go's roles outside feature gates off by default (1.32).
    const upstream = `attachdetach-controller certificate-controller clusterrole-aggregation-controller cronjob-controller daemon-set-controller
      deployment-controller disruption-controller endpoint-controller endpointslice-controller endpointslicemirroring-controller
      ephemeral-volume-controller expand-controller generic-garbage-collector horizontal-pod-autoscaler job-controller
      legacy-service-account-token-cleaner namespace-controller node-controller persistent-volume-binder pod-garbage-collector
      pv-protection-controller pvc-protection-controller replicaset-controller replication-controller resourcequota-controller
      root-ca-cert-publisher route-controller service-account-controller service-controller statefulset-controller
      ttl-after-finished-controller ttl-controller validatingadmissionpolicy-status-controller`.split(/\s+/);
    expect(controllers.map((n) => n.slice('system:controller:'.length)).sort()).toEqual(upstream.sort());
    for (const name of controllers) {
      const b = p.clusterRoleBindings.find((x) => x.metadata.name === name);
      expect(b?.subjects).toEqual([{ kind: 'ServiceAccount', name: name.slice('system:controller:'.length), namespace: 'kube-system' }]);
    }
  });

  it('upstream objects carry the bootstrapping label and autoupdate annotation; kubeadm objects neither', () => {
    const p = bootstrapPolicy();
    const view = p.clusterRoles.find((r) => r.metadata.name === 'view')!;
    expect(view).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: {
        name: 'view',
        labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' },
        annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
      },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }] },
    });
    expect(p.clusterRoleBindings.find((b) => b.metadata.name === 'kubeadm:cluster-admins')).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'kubeadm:cluster-admins' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'kubeadm:cluster-admins' }],
    });
  });

  it('rules are written as upstream builds them: lists sorted', () => {
    const p = bootstrapPolicy();
    expect(p.clusterRoles.find((r) => r.metadata.name === 'system:public-info-viewer')!.rules).toEqual([
      { verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] },
    ]);
    expect(p.clusterRoles.find((r) => r.metadata.name === 'system:node-proxier')!.rules).toEqual([
      { verbs: ['list', 'watch'], apiGroups: [''], resources: ['endpoints', 'services'] },
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['nodes'] },
      { verbs: ['create', 'patch', 'update'], apiGroups: ['', 'events.k8s.io'], resources: ['events'] },
      { verbs: ['list', 'watch'], apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'] },
    ]);
    // system:node keeps its binding, without subjects (the Node authorizer grants it).
    expect(p.clusterRoleBindings.find((b) => b.metadata.name === 'system:node')!.subjects).toBeUndefined();
  });
});
