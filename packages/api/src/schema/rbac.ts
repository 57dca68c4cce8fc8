// The schema of rbac.authorization.k8s.io/v1: Role, ClusterRole, RoleBinding, ClusterRoleBinding (k8s.io/api/rbac/v1 types.go).
// Every list is `+listType=atomic` upstream: no patch strategy (a strategic merge patch replaces it).

import { top, type TypeDef } from './definition.js';

export const RBAC_TYPES: Record<string, TypeDef> = {
  Role: {
    group: 'rbac',
    protobuf: true,
    description: 'A Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.',
    fields: top({ rules: ['[]PolicyRule', 'The PolicyRules of this Role.', { protobuf: 2 }] }),
  },
  ClusterRole: {
    group: 'rbac',
    protobuf: true,
    description: 'A ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.',
    fields: top({
      rules: ['[]PolicyRule', 'The PolicyRules of this ClusterRole.', { protobuf: 2 }],
      aggregationRule: [
        'AggregationRule',
        'How to build the Rules of this ClusterRole. If set, the Rules are controller managed and direct changes to them are overwritten by the controller.',
        { protobuf: 3 },
      ],
    }),
  },
  AggregationRule: {
    group: 'rbac',
    description: 'Which ClusterRoles to aggregate into a ClusterRole.',
    fields: { clusterRoleSelectors: ['[]LabelSelector', 'Selectors of ClusterRoles whose rules are added; a ClusterRole matching any of them counts.', { protobuf: 1 }] },
  },
  PolicyRule: {
    group: 'rbac',
    description: 'A PolicyRule says what may be done (verbs) to which resources or non-resource URLs, without saying who or in which namespace.',
    fields: {
      verbs: ['[]string', "The verbs that apply to ALL the resources of this rule. '*' represents all verbs.", { required: true, protobuf: 1 }],
      apiGroups: ['[]string', 'The API groups of the resources. "" is the core group, "*" all groups.', { protobuf: 2 }],
      resources: ['[]string', "The resources this rule applies to ('pods', 'pods/log', '*', '*/scale').", { protobuf: 3 }],
      resourceNames: ['[]string', 'Names the rule is limited to; empty means every name.', { protobuf: 4 }],
      nonResourceURLs: ['[]string', "Partial URLs ('/healthz', '/api/*'); a '*' may only end one. Only for ClusterRoles bound by a ClusterRoleBinding.", { protobuf: 5 }],
    },
  },
  RoleBinding: {
    group: 'rbac',
    protobuf: true,
    description: 'A RoleBinding grants the permissions of a Role in its namespace, or of a ClusterRole within its namespace, to its subjects.',
    fields: top({
      subjects: ['[]Subject', 'The users, groups and service accounts the role applies to.', { protobuf: 2 }],
      roleRef: ['RoleRef', 'A Role in the same namespace or a ClusterRole. Immutable.', { required: true, protobuf: 3 }],
    }),
  },
  ClusterRoleBinding: {
    group: 'rbac',
    protobuf: true,
    description: 'A ClusterRoleBinding grants the permissions of a ClusterRole cluster-wide to its subjects.',
    fields: top({
      subjects: ['[]Subject', 'The users, groups and service accounts the role applies to.', { protobuf: 2 }],
      roleRef: ['RoleRef', 'A ClusterRole. Immutable.', { required: true, protobuf: 3 }],
    }),
  },
  RoleRef: {
    group: 'rbac',
    description: 'The role a binding refers to.',
    fields: {
      apiGroup: ['string', 'The group of the referenced kind (rbac.authorization.k8s.io).', { required: true, protobuf: 1 }],
      kind: ['string', 'Role or ClusterRole.', { required: true, protobuf: 2 }],
      name: ['string', 'The name of the role.', { required: true, protobuf: 3 }],
    },
  },
  Subject: {
    group: 'rbac',
    description: 'Who a binding applies to: a User, a Group or a ServiceAccount.',
    fields: {
      kind: ['string', 'User, Group or ServiceAccount.', { required: true, protobuf: 1 }],
      apiGroup: ['string', 'Defaults to "" for ServiceAccount subjects and to "rbac.authorization.k8s.io" for User and Group subjects.', { protobuf: 2 }],
      name: ['string', 'The name of the user, group or service account.', { required: true, protobuf: 3 }],
      namespace: ['string', 'The namespace of a ServiceAccount; must be empty for User and Group.', { protobuf: 4 }],
    },
  },
};
