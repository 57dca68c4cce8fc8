// What an authorizer decides on (upstream: k8s.io/apiserver/pkg/authorization/
// authorizer.Attributes, Decision, RuleResolver).

import type { UserInfo, NonResourceRule, ResourceRule } from '@kubelab/api';

/** The request as authorization sees it: a resource request or a non-resource path. */
export interface AuthorizationAttributes {
  readonly user: UserInfo;
  /** get, list, watch, create, update, patch, delete, deletecollection; impersonate, bind, escalate, approve, sign…; for paths the lower-case HTTP method. */
  readonly verb: string;
  readonly resourceRequest: boolean;
  /** Non-resource requests: the URL path (`/healthz`, `/api`). */
  readonly path: string;
  /** Resource requests ("" for cluster-scoped and all-namespace requests). */
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** List/watch: the request's fieldSelector as sent (upstream Attributes.GetFieldSelector; the Node authorizer scopes pod lists by spec.nodeName). */
  readonly fieldSelector?: string;
}

export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

export interface AuthorizerResult {
  readonly decision: Decision;
  /** Why (shown after the forbidden message, e.g. the RBAC or Node authorizer's explanation). */
  readonly reason: string;
}

/** One authorizer of the chain (`--authorization-mode=Node,RBAC`): the first Allow or Deny wins. */
export interface Authorizer {
  authorize(a: AuthorizationAttributes): AuthorizerResult;
}

// The rules SelfSubjectRulesReview reports are the API's own types.
export type { NonResourceRule, ResourceRule };

/** What a user may do in a namespace (upstream authorizer.RuleResolver.RulesFor). */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): { resourceRules: ResourceRule[]; nonResourceRules: NonResourceRule[]; incomplete: boolean; evaluationError?: string };
}
