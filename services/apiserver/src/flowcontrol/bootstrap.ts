// The configuration API Priority and Fairness starts with (upstream:
// k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap, the mandatory and the
// suggested objects of flowcontrol.apiserver.k8s.io/v1): written from its
// tables of names, precedences, shares and queues.

import { createHash } from 'node:crypto';
import {
  AUTO_UPDATE_ANNOTATION,
  GROUP_AUTHENTICATED,
  GROUP_MASTERS,
  GROUP_NODES,
  GROUP_SERVICE_ACCOUNTS,
  GROUP_UNAUTHENTICATED,
  type FlowDistinguisherMethodType,
  type FlowNonResourcePolicyRule as NonResourcePolicyRule,
  type FlowResourcePolicyRule as ResourcePolicyRule,
  type FlowSchema,
  type FlowcontrolSubject as Subject,
  type PriorityLevelConfiguration,
} from '@kubelab/api';

/** A UID for the built-in objects the apiserver classifies with until the stored ones are in its cache: the same on every apiserver, from kind and name. */
function uidOf(kind: string, name: string): string {
  const h = createHash('sha1').update(`flowcontrol.apiserver.k8s.io/${kind}/${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

const CONTROLLER_MANAGER = 'system:kube-controller-manager';
const SCHEDULER = 'system:kube-scheduler';

const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', user: { name } }));
const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const kubeSystemServiceAccounts: Subject[] = [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } }];
const everyResource: ResourcePolicyRule = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] };
const everyPath: NonResourcePolicyRule = { verbs: ['*'], nonResourceURLs: ['*'] };
const leaderElectionRules = (namespaces: string[]): ResourcePolicyRule[] => [
  { verbs: ['get', 'create', 'update'], apiGroups: [''], resources: ['endpoints', 'configmaps'], namespaces },
  { verbs: ['get', 'create', 'update'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] },
];

const meta = (kind: string, name: string) => ({ name, uid: uidOf(kind, name), annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } });

function limited(name: string, shares: number, lendablePercent: number, queuing?: [queues: number, handSize: number, queueLengthLimit: number]): PriorityLevelConfiguration {
  return {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'PriorityLevelConfiguration',
    metadata: meta('PriorityLevelConfiguration', name),
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: shares,
        lendablePercent,
        limitResponse: queuing ? { type: 'Queue', queuing: { queues: queuing[0], handSize: queuing[1], queueLengthLimit: queuing[2] } } : { type: 'Reject' },
      },
    },
  };
}

function schema(
  name: string,
  level: string,
  matchingPrecedence: number,
  distinguisher: FlowDistinguisherMethodType | undefined,
  subjects: Subject[],
  resourceRules: ResourcePolicyRule[],
  nonResourceRules: NonResourcePolicyRule[] = [],
): FlowSchema {
  return {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'FlowSchema',
    metadata: meta('FlowSchema', name),
    spec: {
      priorityLevelConfiguration: { name: level },
      matchingPrecedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules: [{ subjects, ...(resourceRules.length ? { resourceRules } : {}), ...(nonResourceRules.length ? { nonResourceRules } : {}) }],
    },
  };
}

export const BOOTSTRAP_PRIORITY_LEVELS: readonly PriorityLevelConfiguration[] = [
  {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'PriorityLevelConfiguration',
    metadata: meta('PriorityLevelConfiguration', 'exempt'),
    spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } },
  },
  limited('catch-all', 5, 0),
  limited('system', 30, 33, [64, 6, 50]),
  // Node health (Node status, node Leases) apart from the pods' traffic of the same kubelets.
  limited('node-high', 40, 25, [64, 6, 50]),
  limited('leader-election', 10, 0, [16, 4, 50]),
  limited('workload-high', 40, 50, [128, 6, 50]),
  limited('workload-low', 100, 90, [128, 6, 50]),
  limited('global-default', 20, 50, [128, 6, 50]),
];

export const BOOTSTRAP_FLOW_SCHEMAS: readonly FlowSchema[] = [
  schema('exempt', 'exempt', 1, undefined, groups(GROUP_MASTERS), [everyResource], [everyPath]),
  schema('probes', 'exempt', 2, undefined, groups(GROUP_UNAUTHENTICATED, GROUP_AUTHENTICATED), [], [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }]),
  schema('system-leader-election', 'leader-election', 100, 'ByUser', [...users(CONTROLLER_MANAGER, SCHEDULER), ...kubeSystemServiceAccounts], leaderElectionRules(['kube-system'])),
  schema(
    'endpoint-controller',
    'workload-high',
    150,
    'ByUser',
    [...users(CONTROLLER_MANAGER), { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: 'endpoint-controller' } }],
    [{ verbs: ['get', 'create', 'update'], apiGroups: [''], resources: ['endpoints'], namespaces: ['*'] }],
  ),
  schema('workload-leader-election', 'leader-election', 200, 'ByUser', kubeSystemServiceAccounts, leaderElectionRules(['*'])),
  schema('system-node-high', 'node-high', 400, 'ByUser', groups(GROUP_NODES), [
    { verbs: ['*'], apiGroups: [''], resources: ['nodes', 'nodes/status'], clusterScope: true, namespaces: ['*'] },
    { verbs: ['*'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] },
  ]),
  schema('system-nodes', 'system', 500, 'ByUser', groups(GROUP_NODES), [everyResource], [everyPath]),
  schema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', users(CONTROLLER_MANAGER), [everyResource], [everyPath]),
  schema('kube-scheduler', 'workload-high', 800, 'ByNamespace', users(SCHEDULER), [everyResource], [everyPath]),
  schema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', kubeSystemServiceAccounts, [everyResource], [everyPath]),
  schema('service-accounts', 'workload-low', 9000, 'ByUser', groups(GROUP_SERVICE_ACCOUNTS), [everyResource], [everyPath]),
  schema('global-default', 'global-default', 9900, 'ByUser', groups(GROUP_UNAUTHENTICATED, GROUP_AUTHENTICATED), [everyResource], [everyPath]),
  schema('catch-all', 'catch-all', 10000, 'ByUser', groups(GROUP_UNAUTHENTICATED, GROUP_AUTHENTICATED), [everyResource], [everyPath]),
];
