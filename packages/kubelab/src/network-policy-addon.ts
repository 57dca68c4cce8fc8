// The NetworkPolicy agent's place in the cluster as kube-network-policies'
// install manifest makes it: ServiceAccount and ClusterRole
// kube-system/kube-network-policies (list/watch pods, namespaces,
// networkpolicies), their ClusterRoleBinding, and a DaemonSet with a pod on
// every node. As with the Node Problem Detector, the real agent is a node
// process (a compose container in node-N's network namespace, a unit of the
// local runner or of a joined node), not the pod: a client certificate naming
// the ServiceAccount stands in for the pod's token (a joined node's unit uses
// the token the kubelet projects for the pod), so the binding authorizes it
// as the pod.

import type { ClusterRole, ClusterRoleBinding, DaemonSet, ServiceAccount } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import { createUnlessPresent } from './create-once.js';
import { offHollowNodes } from './hollow.js';

export const NETPOL_NAMESPACE = 'kube-system';
export const NETPOL_NAME = 'kube-network-policies';
export const NETPOL_IMAGE = 'registry.k8s.io/networking/kube-network-policies:v0.7.0';

/** The ServiceAccount's user and groups, as its token would authenticate. */
export const NETPOL_IDENTITY = {
  commonName: `system:serviceaccount:${NETPOL_NAMESPACE}:${NETPOL_NAME}`,
  organizations: ['system:serviceaccounts', `system:serviceaccounts:${NETPOL_NAMESPACE}`],
} as const;

export type NetpolRunner = 'local' | 'compose';

export function networkPolicyAddonObjects(runner: NetpolRunner): { serviceAccount: ServiceAccount; role: ClusterRole; binding: ClusterRoleBinding; daemonSet: DaemonSet } {
  const labels = { app: NETPOL_NAME, 'k8s-app': NETPOL_NAME };
  // Where the real agent runs, for the stand-in's log (the image has no agent of its own).
  const where =
    runner === 'compose'
      ? "this node's kube-network-policies container (docker compose logs kube-network-policies-N)"
      : 'the node unit kube-network-policies.service (systemctl status kube-network-policies)';
  return {
    serviceAccount: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: NETPOL_NAME, namespace: NETPOL_NAMESPACE } },
    role: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: NETPOL_NAME },
      rules: [
        { apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['list', 'watch'] },
        { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['list', 'watch'] },
      ],
    },
    binding: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: NETPOL_NAME },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: NETPOL_NAME },
      subjects: [{ kind: 'ServiceAccount', name: NETPOL_NAME, namespace: NETPOL_NAMESPACE }],
    },
    daemonSet: {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: NETPOL_NAME, namespace: NETPOL_NAMESPACE, labels },
      spec: {
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            hostNetwork: true,
            // A node's policy enforcement: scheduled ahead of workloads, never preempted by them.
            priorityClassName: 'system-node-critical',
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }],
            serviceAccountName: NETPOL_NAME,
            containers: [
              {
                name: NETPOL_NAME,
                image: NETPOL_IMAGE,
                imagePullPolicy: 'IfNotPresent',
                // Upstream runs /bin/netpol --hostname-override=$(MY_NODE_NAME); this pod only says where the agent runs.
                command: ['sh', '-c', `echo "kubelab: kube-network-policies for node $MY_NODE_NAME runs as ${where}; this container stands in for it."; exec sleep 2147483647`],
                env: [{ name: 'MY_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
                resources: { requests: { cpu: '100m', memory: '50Mi' } },
                securityContext: { privileged: true, capabilities: { add: ['NET_ADMIN'] } },
              },
            ],
          },
        },
      },
    },
  };
}

/** Creates what is missing (kept when present, as `kubectl apply` of the manifest would leave it); with `hollow`, its DaemonSet kept off the hollow nodes. */
export async function applyNetworkPolicyAddon(cs: Clientset, runner: NetpolRunner, log: (line: string) => void = () => {}, hollow = false): Promise<void> {
  const o = networkPolicyAddonObjects(runner);
  await createUnlessPresent(() => cs.core.serviceAccounts(NETPOL_NAMESPACE).create(o.serviceAccount));
  await createUnlessPresent(() => cs.rbac.clusterRoles().create(o.role));
  await createUnlessPresent(() => cs.rbac.clusterRoleBindings().create(o.binding));
  await createUnlessPresent(() => cs.apps.daemonSets(NETPOL_NAMESPACE).create(hollow ? offHollowNodes(o.daemonSet) : o.daemonSet));
  log('[addons] Applied addon: kube-network-policies (NetworkPolicy agent: ServiceAccount, ClusterRole and DaemonSet kube-system/kube-network-policies)');
}
