// The schema of the review kinds: authorization.k8s.io/v1 (k8s.io/api/authorization/v1
// types.go) and authentication.k8s.io/v1 SelfSubjectReview (authentication/v1 types.go).

import { top, type FieldDef, type TypeDef } from './definition.js';

const sarStatus: FieldDef = ['SubjectAccessReviewStatus', 'Filled in by the server: whether the request is allowed.'];

export const AUTH_TYPES: Record<string, TypeDef> = {
  SubjectAccessReview: {
    group: 'authorization',
    description: 'SubjectAccessReview checks whether or not a user or group can perform an action.',
    fields: top({ spec: ['SubjectAccessReviewSpec', 'The request being evaluated.', { required: true }], status: sarStatus }),
  },
  LocalSubjectAccessReview: {
    group: 'authorization',
    description: 'LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace.',
    fields: top({ spec: ['SubjectAccessReviewSpec', 'The request being evaluated; spec.resourceAttributes.namespace must match the namespace of the review.', { required: true }], status: sarStatus }),
  },
  SelfSubjectAccessReview: {
    group: 'authorization',
    description: 'SelfSubjectAccessReview checks whether or not the current user can perform an action.',
    fields: top({ spec: ['SelfSubjectAccessReviewSpec', 'The request being evaluated; user and groups must be empty.', { required: true }], status: sarStatus }),
  },
  SelfSubjectRulesReview: {
    group: 'authorization',
    description: 'SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace.',
    fields: top({ spec: ['SelfSubjectRulesReviewSpec', 'The request being evaluated.', { required: true }], status: ['SubjectRulesReviewStatus', 'Filled in by the server: the rules.'] }),
  },
  SubjectAccessReviewSpec: {
    group: 'authorization',
    description: 'A description of the access request. Exactly one of resourceAttributes and nonResourceAttributes must be set.',
    fields: {
      resourceAttributes: ['ResourceAttributes', 'A resource access request.'],
      nonResourceAttributes: ['NonResourceAttributes', 'A non-resource access request.'],
      user: ['string', 'The user you are testing for.'],
      groups: ['[]string', 'The groups you are testing for.'],
      extra: ['object', 'Extra user information from the authenticator.'],
      uid: ['string', 'Information about the requesting user.'],
    },
  },
  SelfSubjectAccessReviewSpec: {
    group: 'authorization',
    description: 'A description of the access request. Exactly one of resourceAttributes and nonResourceAttributes must be set.',
    fields: { resourceAttributes: ['ResourceAttributes', 'A resource access request.'], nonResourceAttributes: ['NonResourceAttributes', 'A non-resource access request.'] },
  },
  ResourceAttributes: {
    group: 'authorization',
    description: 'The attributes of a resource request as an authorizer sees them.',
    fields: {
      namespace: ['string', 'The namespace of the action; "" means all namespaces for list/watch, cluster scope otherwise.'],
      verb: ['string', 'A kubernetes resource API verb, or "*".'],
      group: ['string', 'The API group of the resource; "*" means all.'],
      version: ['string', 'The API version of the resource; "*" means all.'],
      resource: ['string', 'One of the existing resource types; "*" means all.'],
      subresource: ['string', 'One of the existing subresources; "" means none.'],
      name: ['string', 'The name of the resource; "" means all.'],
      fieldSelector: ['object', 'The field selector of a list or watch.'],
      labelSelector: ['object', 'The label selector of a list or watch.'],
    },
  },
  NonResourceAttributes: {
    group: 'authorization',
    description: 'The attributes of a non-resource request.',
    fields: { path: ['string', 'The URL path of the request.'], verb: ['string', 'The standard HTTP verb.'] },
  },
  SubjectAccessReviewStatus: {
    group: 'authorization',
    description: 'The answer of an access review.',
    fields: {
      allowed: ['boolean', 'Whether the action is allowed.', { required: true }],
      denied: ['boolean', 'Whether the action is denied (an authorizer said so; allowed may then not be true either).'],
      reason: ['string', 'Why the action was allowed or denied.'],
      evaluationError: ['string', 'An error while checking; the answer may still be known.'],
    },
  },
  SelfSubjectRulesReviewSpec: {
    group: 'authorization',
    description: 'The namespace to evaluate rules in.',
    fields: { namespace: ['string', 'Namespace to evaluate rules for. Required.'] },
  },
  SubjectRulesReviewStatus: {
    group: 'authorization',
    description: 'The rules a user has in a namespace; possibly incomplete.',
    fields: {
      resourceRules: ['[]ResourceRule', 'What the user may do on resources.', { required: true }],
      nonResourceRules: ['[]NonResourceRule', 'What the user may do on non-resource paths.', { required: true }],
      incomplete: ['boolean', 'True when an authorizer could not list every rule (e.g. the Node authorizer).', { required: true }],
      evaluationError: ['string', 'Why the rules are incomplete.'],
    },
  },
  ResourceRule: {
    group: 'authorization',
    description: 'A resource rule: verbs on resources of API groups, optionally by name.',
    fields: {
      verbs: ['[]string', 'Verbs; "*" means all.', { required: true }],
      apiGroups: ['[]string', 'API groups; "*" means all.'],
      resources: ['[]string', 'Resources; "*" means all, "*/foo" a subresource of all.'],
      resourceNames: ['[]string', 'Names; empty means all.'],
    },
  },
  NonResourceRule: {
    group: 'authorization',
    description: 'A non-resource rule: verbs on URL paths.',
    fields: { verbs: ['[]string', 'Verbs; "*" means all.', { required: true }], nonResourceURLs: ['[]string', 'Partial URLs, a trailing * matches a prefix.'] },
  },
  SelfSubjectReview: {
    group: 'authentication',
    description: 'SelfSubjectReview answers with the user information the apiserver has for the caller.',
    fields: top({ status: ['SelfSubjectReviewStatus', 'Filled in by the server: the user.'] }),
  },
  SelfSubjectReviewStatus: {
    group: 'authentication',
    description: 'The user information of the caller.',
    fields: { userInfo: ['AuthenticationUserInfo', 'The user.'] },
  },
  AuthenticationUserInfo: {
    group: 'authentication',
    name: 'UserInfo',
    description: 'The user as an authenticator saw it.',
    fields: {
      username: ['string', 'The name that uniquely identifies this user among all active users.'],
      uid: ['string', 'A unique value that identifies this user across time.'],
      groups: ['[]string', 'The groups this user is a part of.'],
      extra: ['object', 'Any additional information provided by the authenticator.'],
    },
  },
};
