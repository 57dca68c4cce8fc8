// The schema of the review kinds: authorization.k8s.io/v1 (k8s.io/api/authorization/v1
// types.go) and authentication.k8s.io/v1 SelfSubjectReview (authentication/v1 types.go).

import { top, type FieldDef, type TypeDef } from './definition.js';

const sarStatus: FieldDef = ['SubjectAccessReviewStatus', 'Filled in by the server: whether the request is allowed.'];

export const AUTH_TYPES: Record<string, TypeDef> = {
  SubjectAccessReview: {
    group: 'authorization',
    protobuf: true,
    description: 'SubjectAccessReview checks whether or not a user or group can perform an action.',
    fields: top({ spec: ['SubjectAccessReviewSpec', 'The request being evaluated.', { required: true, protobuf: 2 }], status: sarStatus }),
  },
  LocalSubjectAccessReview: {
    group: 'authorization',
    protobuf: true,
    description: 'LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace.',
    fields: top({
      spec: ['SubjectAccessReviewSpec', 'The request being evaluated; spec.resourceAttributes.namespace must match the namespace of the review.', { required: true, protobuf: 2 }],
      status: sarStatus,
    }),
  },
  SelfSubjectAccessReview: {
    group: 'authorization',
    protobuf: true,
    description: 'SelfSubjectAccessReview checks whether or not the current user can perform an action.',
    fields: top({ spec: ['SelfSubjectAccessReviewSpec', 'The request being evaluated; user and groups must be empty.', { required: true, protobuf: 2 }], status: sarStatus }),
  },
  SelfSubjectRulesReview: {
    group: 'authorization',
    protobuf: true,
    description: 'SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace.',
    fields: top({ spec: ['SelfSubjectRulesReviewSpec', 'The request being evaluated.', { required: true, protobuf: 2 }], status: ['SubjectRulesReviewStatus', 'Filled in by the server: the rules.'] }),
  },
  SubjectAccessReviewSpec: {
    group: 'authorization',
    description: 'A description of the access request. Exactly one of resourceAttributes and nonResourceAttributes must be set.',
    fields: {
      resourceAttributes: ['ResourceAttributes', 'A resource access request.', { protobuf: 1 }],
      nonResourceAttributes: ['NonResourceAttributes', 'A non-resource access request.', { protobuf: 2 }],
      user: ['string', 'The user you are testing for.', { protobuf: 3 }],
      groups: ['[]string', 'The groups you are testing for.', { protobuf: 4 }],
      extra: ['object', 'Extra user information from the authenticator.'],
      uid: ['string', 'Information about the requesting user.', { protobuf: 6 }],
    },
  },
  SelfSubjectAccessReviewSpec: {
    group: 'authorization',
    description: 'A description of the access request. Exactly one of resourceAttributes and nonResourceAttributes must be set.',
    fields: {
      resourceAttributes: ['ResourceAttributes', 'A resource access request.', { protobuf: 1 }],
      nonResourceAttributes: ['NonResourceAttributes', 'A non-resource access request.', { protobuf: 2 }],
    },
  },
  ResourceAttributes: {
    group: 'authorization',
    description: 'The attributes of a resource request as an authorizer sees them.',
    fields: {
      namespace: ['string', 'The namespace of the action; "" means all namespaces for list/watch, cluster scope otherwise.', { protobuf: 1 }],
      verb: ['string', 'A kubernetes resource API verb, or "*".', { protobuf: 2 }],
      group: ['string', 'The API group of the resource; "*" means all.', { protobuf: 3 }],
      version: ['string', 'The API version of the resource; "*" means all.', { protobuf: 4 }],
      resource: ['string', 'One of the existing resource types; "*" means all.', { protobuf: 5 }],
      subresource: ['string', 'One of the existing subresources; "" means none.', { protobuf: 6 }],
      name: ['string', 'The name of the resource; "" means all.', { protobuf: 7 }],
      fieldSelector: ['object', 'The field selector of a list or watch.'],
      labelSelector: ['object', 'The label selector of a list or watch.'],
    },
  },
  NonResourceAttributes: {
    group: 'authorization',
    description: 'The attributes of a non-resource request.',
    fields: { path: ['string', 'The URL path of the request.', { protobuf: 1 }], verb: ['string', 'The standard HTTP verb.', { protobuf: 2 }] },
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
    fields: { namespace: ['string', 'Namespace to evaluate rules for. Required.', { protobuf: 1 }] },
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
    protobuf: true,
    description: 'SelfSubjectReview answers with the user information the apiserver has for the caller.',
    fields: top({ status: ['SelfSubjectReviewStatus', 'Filled in by the server: the user.'] }),
  },
  SelfSubjectReviewStatus: {
    group: 'authentication',
    description: 'The user information of the caller.',
    fields: { userInfo: ['AuthenticationUserInfo', 'The user.'] },
  },
};
