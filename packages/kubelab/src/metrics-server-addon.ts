// metrics-server as upstream's components.yaml installs it: ServiceAccount
// kube-system/metrics-server, the ClusterRoles system:aggregated-metrics-reader
// (aggregated into view, edit and admin) and system:metrics-server, its
// bindings (auth-delegator, the extension-apiserver-authentication reader),
// the Service, the Deployment and the APIService v1beta1.metrics.k8s.io.
// The local runner's metrics-server is a process of its own: the Deployment's
// pod is a hostNetwork stand-in whose port is that process's, so the
// Service's endpoint is the real server, which the aggregator reaches; a
// client certificate naming the ServiceAccount stands in for its token.
// In compose the process is the `metrics-server` service in the
// control-plane node's network namespace, so its pod goes there (node
// selector and the control-plane toleration) and its address is that node's.

import type { APIService, ClusterRole, ClusterRoleBinding, Container, Deployment, KubeObject, PodSpec, RoleBinding, Service, ServiceAccount } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import type { Runner } from './control-plane-node.js';
import { createUnlessPresent } from './create-once.js';

export const METRICS_SERVER_NAMESPACE = 'kube-system';
export const METRICS_SERVER_NAME = 'metrics-server';
/** metrics-server's current upstream release. */
export const METRICS_SERVER_IMAGE = 'registry.k8s.io/metrics-server/metrics-server:v0.7.2';

/** The ServiceAccount's user and groups, as its token would authenticate. */
export const METRICS_SERVER_IDENTITY = {
  commonName: `system:serviceaccount:${METRICS_SERVER_NAMESPACE}:${METRICS_SERVER_NAME}`,
  organizations: ['system:serviceaccounts', `system:serviceaccounts:${METRICS_SERVER_NAMESPACE}`],
} as const;

const labels = { 'k8s-app': METRICS_SERVER_NAME };
const sa = [{ kind: 'ServiceAccount', name: METRICS_SERVER_NAME, namespace: METRICS_SERVER_NAMESPACE }];
const rbac = 'rbac.authorization.k8s.io';

/** The flags components.yaml starts it with, beside the runner's own (port, addresses, identity). */
export const METRICS_SERVER_ARGS = ['--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname', '--kubelet-use-node-status-port', '--metric-resolution=15s'];

export interface MetricsServerObjects {
  serviceAccount: ServiceAccount;
  clusterRoles: ClusterRole[];
  roleBinding: RoleBinding;
  clusterRoleBindings: ClusterRoleBinding[];
  service: Service;
  deployment: Deployment;
  apiService: APIService;
}

/** The compose service the control-plane stand-in names (docker-compose.yml). */
export const METRICS_SERVER_COMPOSE_SERVICE = 'metrics-server';

const ON_CONTROL_PLANE: Pick<PodSpec, 'nodeSelector' | 'tolerations'> = {
  nodeSelector: { 'kubernetes.io/os': 'linux', 'node-role.kubernetes.io/control-plane': '' },
  tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
};

/**
 * Where the stand-in pod goes and what it says about the real process: anywhere in the local runner (loopback), control-plane in compose
 * and beside hollow nodes (`hollow`: their addresses, 127.100.x.y, are not the process's 127.0.0.1).
 */
function placement(runner: Runner, hollow = false): { env: NonNullable<Container['env']>[number]; pod: Pick<PodSpec, 'nodeSelector' | 'tolerations'> } {
  if (runner === 'local') return { env: { name: 'KUBELAB_COMPONENT_PROCESS', value: METRICS_SERVER_NAME }, pod: hollow ? ON_CONTROL_PLANE : { nodeSelector: { 'kubernetes.io/os': 'linux' } } };
  return { env: { name: 'KUBELAB_COMPONENT_SERVICE', value: METRICS_SERVER_COMPOSE_SERVICE }, pod: ON_CONTROL_PLANE };
}

/** components.yaml's objects; `port` is the server's --secure-port (the local runner's, shifted by --port-offset). */
export function metricsServerObjects(port: number, args: readonly string[], runner: Runner = 'local', hollow = false): MetricsServerObjects {
  const where = placement(runner, hollow);
  return {
    serviceAccount: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: METRICS_SERVER_NAME, namespace: METRICS_SERVER_NAMESPACE, labels } },
    clusterRoles: [
      {
        apiVersion: `${rbac}/v1`,
        kind: 'ClusterRole',
        metadata: {
          name: 'system:aggregated-metrics-reader',
          labels: { ...labels, [`${rbac}/aggregate-to-admin`]: 'true', [`${rbac}/aggregate-to-edit`]: 'true', [`${rbac}/aggregate-to-view`]: 'true' },
        },
        rules: [{ apiGroups: ['metrics.k8s.io'], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }],
      },
      {
        apiVersion: `${rbac}/v1`,
        kind: 'ClusterRole',
        metadata: { name: 'system:metrics-server', labels },
        rules: [
          { apiGroups: [''], resources: ['nodes/metrics'], verbs: ['get'] },
          { apiGroups: [''], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] },
        ],
      },
    ],
    roleBinding: {
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'metrics-server-auth-reader', namespace: METRICS_SERVER_NAMESPACE, labels },
      roleRef: { apiGroup: rbac, kind: 'Role', name: 'extension-apiserver-authentication-reader' },
      subjects: sa,
    },
    clusterRoleBindings: [
      {
        apiVersion: `${rbac}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'metrics-server:system:auth-delegator', labels },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'system:auth-delegator' },
        subjects: sa,
      },
      {
        apiVersion: `${rbac}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'system:metrics-server', labels },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'system:metrics-server' },
        subjects: sa,
      },
    ],
    service: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: METRICS_SERVER_NAME, namespace: METRICS_SERVER_NAMESPACE, labels },
      spec: { ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 'https' }], selector: labels },
    },
    deployment: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: METRICS_SERVER_NAME, namespace: METRICS_SERVER_NAMESPACE, labels },
      spec: {
        selector: { matchLabels: labels },
        strategy: { rollingUpdate: { maxUnavailable: 0 } },
        template: {
          metadata: { labels },
          spec: {
            // kubelab: the pod's port is the real process's (the node's address: 127.0.0.1 locally, control-plane's in compose).
            hostNetwork: true,
            containers: [
              {
                name: METRICS_SERVER_NAME,
                image: METRICS_SERVER_IMAGE,
                imagePullPolicy: 'IfNotPresent',
                args: ['--cert-dir=/tmp', `--secure-port=${port}`, ...args],
                env: [where.env],
                ports: [{ name: 'https', containerPort: port, protocol: 'TCP' }],
                livenessProbe: { httpGet: { path: '/livez', port: 'https', scheme: 'HTTPS' }, periodSeconds: 10, failureThreshold: 3 },
                readinessProbe: { httpGet: { path: '/readyz', port: 'https', scheme: 'HTTPS' }, initialDelaySeconds: 20, periodSeconds: 10, failureThreshold: 3 },
                resources: { requests: { cpu: '100m', memory: '200Mi' } },
                securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } },
              },
            ],
            ...where.pod,
            priorityClassName: 'system-cluster-critical',
            serviceAccountName: METRICS_SERVER_NAME,
          },
        },
      },
    },
    apiService: {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1beta1.metrics.k8s.io', labels },
      spec: {
        group: 'metrics.k8s.io',
        groupPriorityMinimum: 100,
        insecureSkipTLSVerify: true,
        service: { name: METRICS_SERVER_NAME, namespace: METRICS_SERVER_NAMESPACE },
        version: 'v1beta1',
        versionPriority: 100,
      },
    },
  };
}

/** Creates what is missing (kept when present, as `kubectl apply` of components.yaml would leave it). */
export async function applyMetricsServerAddon(cs: Clientset, port: number, log: (line: string) => void = () => {}, runner: Runner = 'local', hollow = false): Promise<void> {
  const o = metricsServerObjects(port, METRICS_SERVER_ARGS, runner, hollow);
  const ns = METRICS_SERVER_NAMESPACE;
  await createUnlessPresent(() => cs.core.serviceAccounts(ns).create(o.serviceAccount));
  for (const r of o.clusterRoles) await createUnlessPresent(() => cs.rbac.clusterRoles().create(r));
  await createUnlessPresent(() => cs.rbac.roleBindings(ns).create(o.roleBinding));
  for (const b of o.clusterRoleBindings) await createUnlessPresent(() => cs.rbac.clusterRoleBindings().create(b));
  await createUnlessPresent(() => cs.core.services(ns).create(o.service));
  await createUnlessPresent(() => cs.apps.deployments(ns).create(o.deployment));
  await createUnlessPresent(() => cs.resource({ group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices' }).create(o.apiService as KubeObject));
  log('[addons] Applied addon: metrics-server (Deployment kube-system/metrics-server, APIService v1beta1.metrics.k8s.io)');
}
