// The schema of flowcontrol.apiserver.k8s.io/v1: FlowSchema and PriorityLevelConfiguration (k8s.io/api/flowcontrol/v1 types.go).
// Every list is `+listType=atomic` upstream: a strategic merge patch replaces it.

import { cond, top, type TypeDef } from './definition.js';

export const FLOWCONTROL_TYPES: Record<string, TypeDef> = {
  FlowSchema: {
    group: 'flowcontrol',
    description: 'A FlowSchema defines the schema of a group of flows: which requests it matches, their priority level and how they split into flows.',
    fields: top({
      spec: ['FlowSchemaSpec', 'The specification of the FlowSchema.'],
      status: ['FlowSchemaStatus', 'The current status of the FlowSchema.'],
    }),
  },
  FlowSchemaSpec: {
    group: 'flowcontrol',
    description: 'What a FlowSchema matches and where it sends the requests.',
    fields: {
      priorityLevelConfiguration: ['PriorityLevelConfigurationReference', 'The priority level the matched requests go to; one that does not exist makes the FlowSchema dangling.', { required: true }],
      matchingPrecedence: ['int32', 'The order of matching among FlowSchemas (1–10000): the lowest value that matches wins. Default 1000.'],
      distinguisherMethod: ['FlowDistinguisherMethod', 'How the matched requests split into flows; absent: all in one flow.'],
      rules: ['[]PolicyRulesWithSubjects', 'A request matches when at least one rule matches it; empty matches nothing.'],
    },
  },
  FlowSchemaStatus: {
    group: 'flowcontrol',
    description: 'The current state of a FlowSchema.',
    fields: { conditions: ['[]FlowSchemaCondition', 'The current states of the FlowSchema (Dangling).', { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }] },
  },
  FlowSchemaCondition: { group: 'flowcontrol', description: 'A condition of a FlowSchema.', fields: cond('FlowSchema') },
  PriorityLevelConfigurationReference: {
    group: 'flowcontrol',
    description: 'The priority level a FlowSchema sends its requests to.',
    fields: { name: ['string', 'The name of the PriorityLevelConfiguration.', { required: true }] },
  },
  FlowDistinguisherMethod: {
    group: 'flowcontrol',
    description: 'How a FlowSchema splits the requests it matches into flows.',
    fields: { type: ['string', 'ByUser or ByNamespace.', { required: true }] },
  },
  PolicyRulesWithSubjects: {
    group: 'flowcontrol',
    description: 'A test on requests: who made it (subjects) and what it asks for (resource or non-resource rules).',
    fields: {
      subjects: ['[]FlowcontrolSubject', 'The users, groups and service accounts this rule cares about; at least one.', { required: true }],
      resourceRules: ['[]ResourcePolicyRule', 'The resource requests that match, by verb and target.'],
      nonResourceRules: ['[]NonResourcePolicyRule', 'The non-resource requests that match, by verb and URL.'],
    },
  },
  FlowcontrolSubject: {
    group: 'flowcontrol',
    name: 'Subject',
    description: 'Who made a request: a user, a group or a ServiceAccount.',
    fields: {
      kind: ['string', 'User, Group or ServiceAccount.', { required: true }],
      user: ['UserSubject', 'The user, for kind User.'],
      group: ['GroupSubject', 'The group, for kind Group.'],
      serviceAccount: ['ServiceAccountSubject', 'The ServiceAccount, for kind ServiceAccount.'],
    },
  },
  UserSubject: { group: 'flowcontrol', description: 'A user.', fields: { name: ['string', 'The user name, or "*" for every user.', { required: true }] } },
  GroupSubject: { group: 'flowcontrol', description: 'A group of users.', fields: { name: ['string', 'The group name, or "*" for every group.', { required: true }] } },
  ServiceAccountSubject: {
    group: 'flowcontrol',
    description: 'A ServiceAccount, or all of a namespace.',
    fields: {
      namespace: ['string', 'The namespace of the ServiceAccount.', { required: true }],
      name: ['string', 'The name of the ServiceAccount, or "*" for every one in the namespace.', { required: true }],
    },
  },
  ResourcePolicyRule: {
    group: 'flowcontrol',
    description: 'Which resource requests match: all of verbs, apiGroups, resources and the namespace (or clusterScope) must match.',
    fields: {
      verbs: ['[]string', 'Matching verbs; "*" matches all.', { required: true }],
      apiGroups: ['[]string', 'Matching API groups; "*" matches all.', { required: true }],
      resources: ['[]string', 'Matching resources, lowercase and plural, with "/subresource" where one is meant; "*" matches all.', { required: true }],
      clusterScope: ['boolean', 'Whether requests that name no namespace match (cluster-scoped resources, lists across namespaces).'],
      namespaces: ['[]string', 'Matching namespaces; "*" matches every namespace but not the cluster scope.'],
    },
  },
  NonResourcePolicyRule: {
    group: 'flowcontrol',
    description: 'Which non-resource requests match: both the verb and the URL.',
    fields: {
      verbs: ['[]string', 'Matching verbs; "*" matches all.', { required: true }],
      nonResourceURLs: ['[]string', 'Matching URL paths; "/apis/*" matches a prefix, "*" matches all.', { required: true }],
    },
  },
  PriorityLevelConfiguration: {
    group: 'flowcontrol',
    description: 'A PriorityLevelConfiguration is a priority level: its share of the concurrency of the apiserver and what happens to requests beyond it.',
    fields: top({
      spec: ['PriorityLevelConfigurationSpec', 'The specification of the priority level.'],
      status: ['PriorityLevelConfigurationStatus', 'The current status of the priority level.'],
    }),
  },
  PriorityLevelConfigurationSpec: {
    group: 'flowcontrol',
    description: 'Exempt (never limited) or Limited (a share of the concurrency, and queues).',
    fields: {
      type: ['string', 'Exempt or Limited.', { required: true }],
      limited: ['LimitedPriorityLevelConfiguration', 'How a Limited level is limited.'],
      exempt: ['ExemptPriorityLevelConfiguration', 'How an Exempt level is accounted.'],
    },
  },
  LimitedPriorityLevelConfiguration: {
    group: 'flowcontrol',
    description: 'The share of the concurrency limit a Limited level gets, and what happens to requests beyond it.',
    fields: {
      nominalConcurrencyShares: ['int32', "The level's share of the server's concurrency limit, relative to the other Limited levels. Default 30."],
      limitResponse: ['LimitResponse', 'What to do with requests that cannot run at once.'],
      lendablePercent: ['int32', 'The part of its seats other levels may borrow (0–100).'],
      borrowingLimitPercent: ['int32', 'How many seats this level may borrow, as a percentage of its own.'],
    },
  },
  ExemptPriorityLevelConfiguration: {
    group: 'flowcontrol',
    description: 'The accounting of an Exempt level.',
    fields: {
      nominalConcurrencyShares: ['int32', 'Seats the level is counted with (it is never limited).'],
      lendablePercent: ['int32', 'The part of those seats other levels may borrow.'],
    },
  },
  LimitResponse: {
    group: 'flowcontrol',
    description: 'Queue or Reject: what happens to a request that cannot run at once.',
    fields: {
      type: ['string', 'Queue or Reject.', { required: true }],
      queuing: ['QueuingConfiguration', 'The queues, for type Queue.'],
    },
  },
  QueuingConfiguration: {
    group: 'flowcontrol',
    description: "A level's queues and how flows are dealt among them (shuffle sharding).",
    fields: {
      queues: ['int32', 'The number of queues. Default 64.'],
      handSize: ['int32', 'How many queues a flow is dealt; it joins the shortest. Default 8.'],
      queueLengthLimit: ['int32', 'The most requests a queue holds; more are rejected. Default 50.'],
    },
  },
  PriorityLevelConfigurationStatus: {
    group: 'flowcontrol',
    description: 'The current state of a priority level.',
    fields: {
      conditions: ['[]PriorityLevelConfigurationCondition', 'The current states of the priority level.', { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }],
    },
  },
  PriorityLevelConfigurationCondition: { group: 'flowcontrol', description: 'A condition of a priority level.', fields: cond('priority level') },
};
