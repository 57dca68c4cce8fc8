// flowcontrol.apiserver.k8s.io/v1 (k8s.io/api/flowcontrol/v1): API Priority
// and Fairness' configuration. FlowSchemas sort requests into flows of a
// priority level; PriorityLevelConfigurations give each level its share of
// the apiserver's concurrency and its queues.
import type { KubeObject, ObjectMeta } from '../../meta/types.js';

export interface UserSubject {
  /** A user name, or `*` for every user. */
  name: string;
}

export interface GroupSubject {
  /** A group name, or `*` for every group. */
  name: string;
}

export interface ServiceAccountSubject {
  namespace: string;
  /** A ServiceAccount name, or `*` for every ServiceAccount of the namespace. */
  name: string;
}

export interface FlowcontrolSubject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  user?: UserSubject;
  group?: GroupSubject;
  serviceAccount?: ServiceAccountSubject;
}

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
  subjects: FlowcontrolSubject[];
  resourceRules?: ResourcePolicyRule[];
  nonResourceRules?: NonResourcePolicyRule[];
}

export type FlowDistinguisherMethodType = 'ByUser' | 'ByNamespace';

export interface FlowDistinguisherMethod {
  type: FlowDistinguisherMethodType;
}

export interface PriorityLevelConfigurationReference {
  name: string;
}

export interface FlowSchemaSpec {
  priorityLevelConfiguration: PriorityLevelConfigurationReference;
  /** 1–10000; the lowest matching value wins. */
  matchingPrecedence?: number;
  distinguisherMethod?: FlowDistinguisherMethod;
  rules?: PolicyRulesWithSubjects[];
}

export interface FlowSchemaCondition {
  /** `Dangling`: the named priority level does not exist. */
  type?: string;
  status?: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface FlowSchemaStatus {
  conditions?: FlowSchemaCondition[];
}

export interface FlowSchema extends KubeObject {
  apiVersion?: 'flowcontrol.apiserver.k8s.io/v1';
  kind?: 'FlowSchema';
  metadata: ObjectMeta;
  spec?: FlowSchemaSpec;
  status?: FlowSchemaStatus;
}

export interface QueuingConfiguration {
  queues?: number;
  handSize?: number;
  queueLengthLimit?: number;
}

export interface LimitResponse {
  type: 'Queue' | 'Reject';
  queuing?: QueuingConfiguration;
}

export interface LimitedPriorityLevelConfiguration {
  nominalConcurrencyShares?: number;
  limitResponse?: LimitResponse;
  lendablePercent?: number;
  borrowingLimitPercent?: number;
}

export interface ExemptPriorityLevelConfiguration {
  nominalConcurrencyShares?: number;
  lendablePercent?: number;
}

export interface PriorityLevelConfigurationSpec {
  type: 'Exempt' | 'Limited';
  limited?: LimitedPriorityLevelConfiguration;
  exempt?: ExemptPriorityLevelConfiguration;
}

export interface PriorityLevelConfigurationCondition {
  type?: string;
  status?: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface PriorityLevelConfigurationStatus {
  conditions?: PriorityLevelConfigurationCondition[];
}

export interface PriorityLevelConfiguration extends KubeObject {
  apiVersion?: 'flowcontrol.apiserver.k8s.io/v1';
  kind?: 'PriorityLevelConfiguration';
  metadata: ObjectMeta;
  spec?: PriorityLevelConfigurationSpec;
  status?: PriorityLevelConfigurationStatus;
}

/** The annotation by which the apiserver keeps a bootstrap object's spec its own at every start (`apf.kubernetes.io/autoupdate-spec`). */
export const AUTO_UPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';
