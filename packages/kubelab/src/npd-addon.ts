// The Node Problem Detector's place in the cluster as its upstream DaemonSet
// manifest makes it: ServiceAccount kube-system/node-problem-detector and the
// ClusterRoleBinding npd-binding to the bootstrap role
// system:node-problem-detector (upstream ships the role, not the binding).
// The local runner's NPD is a node process, not a pod: a client certificate
// naming that ServiceAccount stands in for the pod's token, so the binding
// authorizes it as it would the pod.

import type { ClusterRoleBinding, ServiceAccount } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import { createUnlessPresent } from './create-once.js';

export const NPD_NAMESPACE = 'kube-system';
export const NPD_SERVICE_ACCOUNT = 'node-problem-detector';

/** The ServiceAccount's user and groups, as its token would authenticate. */
export const NPD_IDENTITY = {
  commonName: `system:serviceaccount:${NPD_NAMESPACE}:${NPD_SERVICE_ACCOUNT}`,
  organizations: ['system:serviceaccounts', `system:serviceaccounts:${NPD_NAMESPACE}`],
} as const;

export function npdAddonObjects(): { serviceAccount: ServiceAccount; binding: ClusterRoleBinding } {
  return {
    serviceAccount: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: NPD_SERVICE_ACCOUNT, namespace: NPD_NAMESPACE } },
    binding: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'npd-binding' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node-problem-detector' },
      subjects: [{ kind: 'ServiceAccount', name: NPD_SERVICE_ACCOUNT, namespace: NPD_NAMESPACE }],
    },
  };
}

/** Creates what is missing (kept when present, as `kubectl apply` of the addon would leave it). */
export async function applyNpdAddon(cs: Clientset, log: (line: string) => void = () => {}): Promise<void> {
  const { serviceAccount, binding } = npdAddonObjects();
  await createUnlessPresent(() => cs.core.serviceAccounts(NPD_NAMESPACE).create(serviceAccount));
  await createUnlessPresent(() => cs.rbac.clusterRoleBindings().create(binding));
  log('[addons] Applied addon: node-problem-detector (ServiceAccount kube-system/node-problem-detector, ClusterRoleBinding npd-binding)');
}
