// API Priority and Fairness' configuration objects, as much of their
// flowcontrol.apiserver.k8s.io/v1 shape as the apiserver acts on (upstream:
// k8s.io/api/flowcontrol/v1 FlowSchema and PriorityLevelConfiguration).

export type Subject = { kind: 'User'; user: { name: string } } | { kind: 'Group'; group: { name: string } } | { kind: 'ServiceAccount'; serviceAccount: { namespace: string; name: string } };

export interface ResourcePolicyRule {
  verbs: string[];
  apiGroups: string[];
  /** `pods`, `pods/status`, or `*`. */
  resources: string[];
  /** Matches requests without a namespace (cluster-scoped objects, lists across namespaces). */
  clusterScope?: boolean;
  namespaces?: string[];
}

export interface NonResourcePolicyRule {
  verbs: string[];
  /** `/healthz`, a prefix `/apis/*`, or `*`. */
  nonResourceURLs: string[];
}

export interface PolicyRulesWithSubjects {
  subjects: Subject[];
  resourceRules?: ResourcePolicyRule[];
  nonResourceRules?: NonResourcePolicyRule[];
}

export type FlowDistinguisherMethodType = 'ByUser' | 'ByNamespace';

export interface FlowSchema {
  metadata: { name: string; uid: string };
  spec: {
    priorityLevelConfiguration: { name: string };
    matchingPrecedence: number;
    distinguisherMethod?: { type: FlowDistinguisherMethodType };
    rules: PolicyRulesWithSubjects[];
  };
}

export interface QueuingConfiguration {
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

export type LimitResponse = { type: 'Queue'; queuing: QueuingConfiguration } | { type: 'Reject' };

export interface PriorityLevelConfiguration {
  metadata: { name: string; uid: string };
  spec:
    | { type: 'Exempt' }
    | {
        type: 'Limited';
        limited: { nominalConcurrencyShares: number; lendablePercent: number; limitResponse: LimitResponse };
      };
}
