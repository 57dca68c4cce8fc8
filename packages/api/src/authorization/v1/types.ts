// authorization.k8s.io/v1 (k8s.io/api/authorization/v1): the access reviews
// behind `kubectl auth can-i` and delegated authorization. Create-only, never stored.
import type { KubeObject, ObjectMeta } from '../../meta/types.js';

export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  fieldSelector?: { rawSelector?: string; requirements?: unknown[] };
  labelSelector?: { rawSelector?: string; requirements?: unknown[] };
}

export interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

export interface SubjectAccessReviewSpec {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

export interface SubjectAccessReviewStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

export interface SubjectAccessReview extends KubeObject {
  apiVersion?: 'authorization.k8s.io/v1';
  kind?: 'SubjectAccessReview';
  metadata: ObjectMeta;
  spec: SubjectAccessReviewSpec;
  status?: SubjectAccessReviewStatus;
}

export interface LocalSubjectAccessReview extends KubeObject {
  apiVersion?: 'authorization.k8s.io/v1';
  kind?: 'LocalSubjectAccessReview';
  metadata: ObjectMeta;
  spec: SubjectAccessReviewSpec;
  status?: SubjectAccessReviewStatus;
}

export interface SelfSubjectAccessReviewSpec {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
}

export interface SelfSubjectAccessReview extends KubeObject {
  apiVersion?: 'authorization.k8s.io/v1';
  kind?: 'SelfSubjectAccessReview';
  metadata: ObjectMeta;
  spec: SelfSubjectAccessReviewSpec;
  status?: SubjectAccessReviewStatus;
}

export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

export interface SelfSubjectRulesReviewSpec {
  namespace?: string;
}

export interface SubjectRulesReviewStatus {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  incomplete: boolean;
  evaluationError?: string;
}

export interface SelfSubjectRulesReview extends KubeObject {
  apiVersion?: 'authorization.k8s.io/v1';
  kind?: 'SelfSubjectRulesReview';
  metadata: ObjectMeta;
  spec: SelfSubjectRulesReviewSpec;
  status?: SubjectRulesReviewStatus;
}
