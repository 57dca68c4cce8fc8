// The dashboard's place in the cluster: ServiceAccount
// kube-system:kubelab-dashboard, bound to the aggregated `view` ClusterRole
// (pods, deployments, events in every namespace) and to the ClusterRole
// kubelab-dashboard for what `view` leaves out: nodes and Leases (the map's
// Ready state and heartbeats) and the two writes its actions make (scale a
// Deployment, delete a pod). As for metrics-server, the local runner's
// dashboard is a process: a client certificate naming the ServiceAccount
// stands in for its token (kubeadm.ts writes kubelab-dashboard.conf).

import type { ClusterRole, ClusterRoleBinding, ServiceAccount } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import { createUnlessPresent } from './create-once.js';

export const DASHBOARD_NAMESPACE = 'kube-system';
export const DASHBOARD_NAME = 'kubelab-dashboard';

/** The ServiceAccount's user and groups, as its token would authenticate. */
export const DASHBOARD_IDENTITY = {
  commonName: `system:serviceaccount:${DASHBOARD_NAMESPACE}:${DASHBOARD_NAME}`,
  organizations: ['system:serviceaccounts', `system:serviceaccounts:${DASHBOARD_NAMESPACE}`],
} as const;

const rbac = 'rbac.authorization.k8s.io';
const labels = { 'app.kubernetes.io/name': DASHBOARD_NAME };
const subjects = [{ kind: 'ServiceAccount', name: DASHBOARD_NAME, namespace: DASHBOARD_NAMESPACE }];

export interface DashboardObjects {
  serviceAccount: ServiceAccount;
  clusterRole: ClusterRole;
  clusterRoleBindings: ClusterRoleBinding[];
}

export function dashboardObjects(): DashboardObjects {
  return {
    serviceAccount: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DASHBOARD_NAME, namespace: DASHBOARD_NAMESPACE, labels } },
    clusterRole: {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name: DASHBOARD_NAME, labels },
      rules: [
        { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], verbs: ['patch', 'update'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['delete'] },
      ],
    },
    clusterRoleBindings: [
      {
        apiVersion: `${rbac}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: `${DASHBOARD_NAME}:view`, labels },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'view' },
        subjects,
      },
      {
        apiVersion: `${rbac}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: DASHBOARD_NAME, labels },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: DASHBOARD_NAME },
        subjects,
      },
    ],
  };
}

/** Creates what is missing (kept when present). */
export async function applyDashboardAddon(cs: Clientset, log: (line: string) => void = () => {}): Promise<void> {
  const o = dashboardObjects();
  await createUnlessPresent(() => cs.core.serviceAccounts(DASHBOARD_NAMESPACE).create(o.serviceAccount));
  await createUnlessPresent(() => cs.rbac.clusterRoles().create(o.clusterRole));
  for (const b of o.clusterRoleBindings) await createUnlessPresent(() => cs.rbac.clusterRoleBindings().create(b));
  log(`[addons] Applied addon: ${DASHBOARD_NAME} (ServiceAccount ${DASHBOARD_NAMESPACE}/${DASHBOARD_NAME}, ClusterRoleBindings to view and ${DASHBOARD_NAME})`);
}
