// kubeadm's CoreDNS addon phase (cmd/kubeadm/app/phases/addons/dns): the
// ServiceAccount kube-system/coredns, ClusterRole and binding system:coredns,
// the `coredns` ConfigMap holding kubeadm's Corefile, the Deployment
// (2 replicas) and the `kube-dns` Service at the tenth address of the
// service range. The program behind the image is containerd's
// programs/coredns.ts. In the local runner (no pod network) the container
// is told the apiserver's loopback address (KUBELAB_APISERVER), dialled from
// the host as a hostNetwork pod would; in compose it reaches the API through
// the `kubernetes` Service with its ServiceAccount, as upstream.

import type { ClusterRole, ClusterRoleBinding, ConfigMap, Deployment, Service, ServiceAccount } from '@kubelab/api';
import { formatIpv4, isNotFound, parseIpv4Cidr } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import { createUnlessPresent } from './create-once.js';
import { offHollowNodes } from './hollow.js';
import { CONTROL_PLANE_TAINT } from './topology.js';

export const COREDNS_NAMESPACE = 'kube-system';
export const COREDNS_IMAGE = 'registry.k8s.io/coredns/coredns:v1.11.3';
/** kubeadm's default --service-cidr, the range both runners' apiservers serve (--service-cluster-ip-range). */
export const DEFAULT_SERVICE_CIDR = '10.96.0.0/12';
const rbac = 'rbac.authorization.k8s.io';
const labels = { 'k8s-app': 'kube-dns' };

/** The cluster DNS Service's ClusterIP: the tenth address of the service range (kubeadm's GetDNSIP). */
export function dnsServiceIp(serviceCidr: string): string {
  const cidr = parseIpv4Cidr(serviceCidr);
  if (!cidr || cidr.prefix > 28) throw new Error(`--service-cidr "${serviceCidr}": not an IPv4 CIDR with room for the DNS Service IP`);
  return formatIpv4(cidr.base + 10);
}

/** kubeadm's Corefile (template CoreDNSConfigMap; the upstream nameservers are the pod's /etc/resolv.conf under dnsPolicy Default). */
export function kubeadmCorefile(domain = 'cluster.local'): string {
  return `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes ${domain} in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30
    loop
    reload
    loadbalance
}
`;
}

export interface CorednsObjects {
  serviceAccount: ServiceAccount;
  clusterRole: ClusterRole;
  clusterRoleBinding: ClusterRoleBinding;
  configMap: ConfigMap;
  deployment: Deployment;
  service: Service;
}

/** The addon's objects; `apiserver` (the local runner's loopback URL) is handed to the container where there is no pod network. */
export function corednsObjects(opts: { serviceCidr: string; apiserver?: string }): CorednsObjects {
  return {
    serviceAccount: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'coredns', namespace: COREDNS_NAMESPACE } },
    clusterRole: {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'system:coredns' },
      rules: [
        { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      ],
    },
    clusterRoleBinding: {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:coredns' },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'system:coredns' },
      subjects: [{ kind: 'ServiceAccount', name: 'coredns', namespace: COREDNS_NAMESPACE }],
    },
    configMap: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', namespace: COREDNS_NAMESPACE }, data: { Corefile: kubeadmCorefile() } },
    deployment: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'coredns', namespace: COREDNS_NAMESPACE, labels },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
        template: {
          metadata: { labels },
          spec: {
            priorityClassName: 'system-cluster-critical',
            serviceAccountName: 'coredns',
            affinity: {
              podAntiAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [
                  { weight: 100, podAffinityTerm: { labelSelector: { matchExpressions: [{ key: 'k8s-app', operator: 'In', values: ['kube-dns'] }] }, topologyKey: 'kubernetes.io/hostname' } },
                ],
              },
            },
            tolerations: [
              { key: 'CriticalAddonsOnly', operator: 'Exists' },
              { key: CONTROL_PLANE_TAINT.key, effect: CONTROL_PLANE_TAINT.effect },
            ],
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            containers: [
              {
                name: 'coredns',
                image: COREDNS_IMAGE,
                imagePullPolicy: 'IfNotPresent',
                resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
                args: ['-conf', '/etc/coredns/Corefile'],
                // kubelab: the local runner has no pod network; the API is its loopback address.
                ...(opts.apiserver ? { env: [{ name: 'KUBELAB_APISERVER', value: opts.apiserver }] } : {}),
                volumeMounts: [{ name: 'config-volume', mountPath: '/etc/coredns', readOnly: true }],
                ports: [
                  { containerPort: 53, name: 'dns', protocol: 'UDP' },
                  { containerPort: 53, name: 'dns-tcp', protocol: 'TCP' },
                  { containerPort: 9153, name: 'metrics', protocol: 'TCP' },
                ],
                securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] }, readOnlyRootFilesystem: true },
                livenessProbe: { httpGet: { path: '/health', port: 8080, scheme: 'HTTP' }, initialDelaySeconds: 60, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 5 },
                readinessProbe: { httpGet: { path: '/ready', port: 8181, scheme: 'HTTP' } },
              },
            ],
            dnsPolicy: 'Default',
            volumes: [{ name: 'config-volume', configMap: { name: 'coredns', items: [{ key: 'Corefile', path: 'Corefile' }] } }],
          },
        },
      },
    },
    service: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'kube-dns',
        namespace: COREDNS_NAMESPACE,
        labels: { ...labels, 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' },
        annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
      },
      spec: {
        selector: labels,
        clusterIP: dnsServiceIp(opts.serviceCidr),
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
          { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
          { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
        ],
      },
    },
  };
}

/** Creates what is missing (kept when present, as kubeadm's EnsureDNSAddon leaves an existing ConfigMap). */
/** `hollow`: the Deployment is kept off hollow nodes (offHollowNodes), where its pods would answer no one. */
export async function applyCorednsAddon(cs: Clientset, opts: { serviceCidr: string; apiserver?: string; hollow?: boolean }, log: (line: string) => void = () => {}): Promise<void> {
  const o = corednsObjects(opts);
  if (opts.hollow) o.deployment = offHollowNodes(o.deployment);
  const ns = COREDNS_NAMESPACE;
  await createUnlessPresent(() => cs.core.serviceAccounts(ns).create(o.serviceAccount));
  await createUnlessPresent(() => cs.rbac.clusterRoles().create(o.clusterRole));
  await createUnlessPresent(() => cs.rbac.clusterRoleBindings().create(o.clusterRoleBinding));
  await createUnlessPresent(() => cs.core.configMaps(ns).create(o.configMap));
  await createUnlessPresent(() => cs.apps.deployments(ns).create(o.deployment));
  // A Service with a fixed ClusterIP is looked up first: a second create is refused for its taken IP before its name.
  const existing = await cs.core
    .services(ns)
    .get('kube-dns')
    .catch((e: unknown) => {
      if (isNotFound(e)) return undefined;
      throw e;
    });
  if (!existing) await createUnlessPresent(() => cs.core.services(ns).create(o.service));
  log('[addons] Applied essential addon: CoreDNS');
}
