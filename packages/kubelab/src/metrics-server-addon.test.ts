import { describe, expect, it } from 'vitest';
import { METRICS_SERVER_ARGS, METRICS_SERVER_IDENTITY, metricsServerObjects } from './metrics-server-addon.js';

describe("metrics-server's objects (upstream components.yaml)", () => {
  const o = metricsServerObjects(5243, METRICS_SERVER_ARGS);
  it('registers v1beta1.metrics.k8s.io to the Service on its https port', () => {
    expect(o.apiService.spec).toEqual({
      group: 'metrics.k8s.io',
      groupPriorityMinimum: 100,
      insecureSkipTLSVerify: true,
      service: { name: 'metrics-server', namespace: 'kube-system' },
      version: 'v1beta1',
      versionPriority: 100,
    });
    expect(o.service.spec?.ports).toEqual([{ name: 'https', port: 443, protocol: 'TCP', targetPort: 'https' }]);
    expect(o.service.spec?.selector).toEqual({ 'k8s-app': 'metrics-server' });
  });
  it("runs a pod whose named port is the process's, probed on /readyz and /livez", () => {
    const c = o.deployment.spec!.template.spec!.containers[0]!;
    expect(o.deployment.spec!.template.spec!.hostNetwork).toBe(true);
    expect(c.ports).toEqual([{ name: 'https', containerPort: 5243, protocol: 'TCP' }]);
    expect(c.args).toEqual(['--cert-dir=/tmp', '--secure-port=5243', '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname', '--kubelet-use-node-status-port', '--metric-resolution=15s']);
    expect(c.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'https', scheme: 'HTTPS' });
  });
  it('grants what metrics-server needs and lets view, edit and admin read metrics', () => {
    const [reader, server] = o.clusterRoles;
    expect(Object.keys(reader!.metadata.labels!)).toEqual(
      expect.arrayContaining(['rbac.authorization.k8s.io/aggregate-to-admin', 'rbac.authorization.k8s.io/aggregate-to-edit', 'rbac.authorization.k8s.io/aggregate-to-view']),
    );
    expect(server!.rules).toContainEqual({ apiGroups: [''], resources: ['nodes/metrics'], verbs: ['get'] });
    expect(o.clusterRoleBindings.map((b) => b.roleRef.name)).toEqual(['system:auth-delegator', 'system:metrics-server']);
    expect(o.roleBinding.roleRef.name).toBe('extension-apiserver-authentication-reader');
    expect(METRICS_SERVER_IDENTITY.commonName).toBe('system:serviceaccount:kube-system:metrics-server');
  });
  it.each([
    ['local', { 'kubernetes.io/os': 'linux' }, undefined, { name: 'KUBELAB_COMPONENT_PROCESS', value: 'metrics-server' }],
    [
      'compose',
      { 'kubernetes.io/os': 'linux', 'node-role.kubernetes.io/control-plane': '' },
      [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
      { name: 'KUBELAB_COMPONENT_SERVICE', value: 'metrics-server' },
    ],
  ] as const)('%s: the stand-in goes where the real process listens and names it', (runner, nodeSelector, tolerations, env) => {
    const spec = metricsServerObjects(4443, METRICS_SERVER_ARGS, runner).deployment.spec!.template.spec!;
    expect(spec.nodeSelector).toEqual(nodeSelector);
    expect(spec.tolerations).toEqual(tolerations);
    expect(spec.containers[0]!.env).toEqual([env]);
    expect(spec.hostNetwork).toBe(true);
  });
});
