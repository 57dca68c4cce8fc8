// The schema of meta/v1 (k8s.io/apimachinery/pkg/apis/meta/v1) and the primitive types that print by name (Time, IntOrString, Quantity).

import { API_VERSION, cond, KIND, type TypeDef } from './definition.js';

export const META_TYPES: Record<string, TypeDef> = {
  Time: { group: 'meta', description: 'A timestamp in RFC 3339 form with second precision, in UTC.', primitive: { type: 'string', format: 'date-time' } },
  MicroTime: { group: 'meta', description: 'A timestamp in RFC 3339 form with microsecond precision.', primitive: { type: 'string', format: 'date-time' } },
  IntOrString: {
    group: 'intstr',
    description: 'Either an integer or a string (a port number or a port name, a count or a percentage).',
    primitive: { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] },
  },
  Quantity: {
    group: 'resource',
    description: 'A fixed-point amount with an optional suffix: "100m" CPU is a tenth of a core, "128Mi" memory is 128 mebibytes.',
    primitive: { oneOf: [{ type: 'string' }, { type: 'number' }] },
  },
  ObjectMeta: {
    group: 'meta',
    description: 'Metadata every persisted object has: identity (name, namespace, uid), labels and annotations, and bookkeeping the system maintains.',
    fields: {
      name: ['string', 'The object name, unique within its namespace (or the cluster, for cluster-scoped kinds). Cannot be changed after creation.', { protobuf: 1 }],
      generateName: ['string', 'A prefix the server completes with random characters to form a unique name, when name is empty.', { protobuf: 2 }],
      namespace: ['string', 'The namespace the object lives in. Empty for cluster-scoped kinds; defaults to "default" for namespaced ones.', { protobuf: 3 }],
      uid: ['string', 'A unique identifier the server assigns at creation. Read-only.', { protobuf: 5 }],
      resourceVersion: ['string', 'An opaque version the server changes on every write; used for optimistic concurrency and watches. Read-only.', { protobuf: 6 }],
      generation: ['int64', 'A sequence number of changes to the desired state (spec). Read-only.'],
      creationTimestamp: ['Time', 'When the server created the object. Read-only.', { protobuf: 8 }],
      deletionTimestamp: ['Time', 'When the object is to be deleted; set by the server when a graceful deletion is requested. Read-only.'],
      deletionGracePeriodSeconds: ['int64', 'Seconds the object is given to terminate gracefully before it is removed. Read-only.'],
      labels: ['map[string]string', 'Key/value pairs used to organize and select objects (by selectors of services, controllers, kubectl -l).', { protobuf: 11 }],
      annotations: ['map[string]string', 'Key/value pairs for arbitrary, non-identifying metadata that tools store on the object.', { protobuf: 12 }],
      ownerReferences: ['[]OwnerReference', 'Objects this one depends on; when all owners are gone the garbage collector deletes it.', { patchStrategy: 'merge', patchMergeKey: 'uid', protobuf: 13 }],
      finalizers: ['[]string', 'Names of cleanups that must finish before the object is removed from storage.', { patchStrategy: 'merge', protobuf: 14 }],
      managedFields: ['[]ManagedFieldsEntry', 'Which field manager set which fields; maintained by the server.'],
      selfLink: ['string', 'Deprecated and unused.'],
    },
  },
  OwnerReference: {
    group: 'meta',
    description: 'Points to an object that owns this one (for example the ReplicaSet of a Pod).',
    fields: {
      apiVersion: ['string', 'API version of the owner.', { required: true, protobuf: 5 }],
      kind: ['string', 'Kind of the owner.', { required: true, protobuf: 1 }],
      name: ['string', 'Name of the owner.', { required: true, protobuf: 3 }],
      uid: ['string', 'UID of the owner.', { required: true, protobuf: 4 }],
      controller: ['boolean', 'True when the owner is the managing controller; at most one owner may be.', { protobuf: 6, keepZero: true }],
      blockOwnerDeletion: ['boolean', 'Foreground deletion of the owner waits for this object to be deleted first.', { protobuf: 7, keepZero: true }],
    },
  },
  ManagedFieldsEntry: {
    group: 'meta',
    description: 'A record of the fields one manager set by one operation.',
    fields: {
      manager: ['string', 'The name of the field manager.'],
      operation: ['string', 'Apply or Update.'],
      apiVersion: ['string', 'The version of the object the fields refer to.'],
      time: ['Time', 'When the entry was last changed.'],
      fieldsType: ['string', 'The format of fieldsV1; always "FieldsV1".'],
      fieldsV1: ['object', 'The set of fields, as a trie of field names.'],
      subresource: ['string', 'The subresource the write went through, if any.'],
    },
  },
  LabelSelector: {
    group: 'meta',
    structType: 'atomic',
    description: 'A query over labels. The requirements are ANDed; an empty selector matches everything.',
    fields: {
      matchLabels: ['map[string]string', 'Exact key=value pairs the labels must contain.', { protobuf: 1 }],
      matchExpressions: ['[]LabelSelectorRequirement', 'Set-based requirements (In, NotIn, Exists, DoesNotExist).', { protobuf: 2 }],
    },
  },
  LabelSelectorRequirement: {
    group: 'meta',
    description: 'A selector requirement: a key, an operator and values.',
    fields: {
      key: ['string', 'The label key.', { required: true, protobuf: 1 }],
      operator: ['string', 'In, NotIn, Exists or DoesNotExist.', { required: true, protobuf: 2 }],
      values: ['[]string', 'Values for In and NotIn; must be empty for Exists and DoesNotExist.', { protobuf: 3 }],
    },
  },
  Condition: { group: 'meta', description: 'A generic condition of an object.', fields: { ...cond('this'), observedGeneration: ['int64', 'The generation the condition was computed for.'] } },
  Preconditions: {
    group: 'meta',
    description: 'Conditions that must hold for a delete to proceed.',
    fields: { uid: ['string', 'The object must have this UID.'], resourceVersion: ['string', 'The object must be at this resourceVersion.'] },
  },
  DeleteOptions: {
    group: 'meta',
    description: 'Options of a delete request.',
    fields: {
      apiVersion: API_VERSION,
      kind: KIND,
      gracePeriodSeconds: ['int64', 'Seconds before the object is deleted; 0 deletes immediately.'],
      preconditions: ['Preconditions', 'Must hold for the deletion to proceed.'],
      orphanDependents: ['boolean', 'Deprecated: use propagationPolicy.'],
      propagationPolicy: ['string', 'Orphan, Background or Foreground: what happens to dependents.'],
      dryRun: ['[]string', 'When "All", the deletion is checked but not persisted.'],
    },
  },
};
