// The shape of kubelab's one description of the object model: per Go struct
// of k8s.io/api, its fields with their type, description, whether required,
// the `patchStrategy`/`patchMergeKey` struct tags and the generated.proto
// field number. The OpenAPI v3 documents (kube-openapi), strict decoding,
// the strategic-merge patch metadata and the protobuf decoder all read it.
//
// How to add a kind. Its shape is one description here; OpenAPI, strict
// decoding, patch metadata (read it through `fieldPatchMeta`) and protobuf
// follow. Serving it also takes a RESOURCES entry (resources.ts) and, for
// other packages, exports in the package index.
//   1. Describe the kind and each struct it holds in the group's file here
//      (`top({...})` adds apiVersion, kind and metadata; a new group file
//      joins SCHEMA in index.ts); a field's type is one of the FieldType
//      forms below.
//   2. Give list fields upstream's patch tags (`patchStrategy`,
//      `patchMergeKey`); PATCH_META follows.
//   3. Only if kubectl sends the kind as protobuf: number the fields it sends
//      (`protobuf`, plus `keepZero` for Go pointers) and set `protobuf: true`
//      on the kind.
//   4. Write the TypeScript interface in <group>/v1/types.ts; the schema
//      interface test fails until the two agree.

/** The Go package an OpenAPI name comes from. */
export type Group =
  | 'core'
  | 'apps'
  | 'meta'
  | 'discovery'
  | 'coordination'
  | 'autoscaling'
  | 'policy'
  | 'rbac'
  | 'authorization'
  | 'authentication'
  | 'certificates'
  | 'events'
  | 'apiextensions'
  | 'intstr'
  | 'resource'
  | 'apiregistration'
  | 'batch'
  | 'storage'
  | 'scheduling'
  | 'flowcontrol'
  | 'autoscalingv2'
  | 'networking';

/**
 * A field's type: string, int32, int64, boolean, number, Time, MicroTime,
 * IntOrString, Quantity, bytes (a base64 string), object (free-form), the
 * name of a type described here, `[]T` or `map[string]T`.
 */
export type FieldType = string;

/**
 * The field types that are neither described here nor `[]T`/`map[string]T`.
 * Each reader of the schema maps every one (a Record keyed by PrimitiveType),
 * so a new one is a type error wherever it needs a meaning.
 */
export const PRIMITIVE_TYPES = ['string', 'int32', 'int64', 'boolean', 'number', 'bytes', 'object'] as const;
export type PrimitiveType = (typeof PRIMITIVE_TYPES)[number];

export function isPrimitiveType(t: FieldType): t is PrimitiveType {
  return (PRIMITIVE_TYPES as readonly string[]).includes(t);
}

/** The `patchStrategy` struct tag (upstream strategicpatch). */
export type PatchStrategy = 'merge' | 'retainKeys' | 'merge,retainKeys' | 'replace';

export interface FieldOptions {
  /** Listed in the OpenAPI `required` of the type (upstream: no `+optional`). */
  required?: true;
  /** How a strategic merge patch combines this list (or, retainKeys, this struct); absent: replace. */
  patchStrategy?: PatchStrategy;
  /** The field that identifies an item of a list merged by key. */
  patchMergeKey?: string;
  /** The field number in generated.proto (`protobuf:"bytes,N,opt,name=..."`); only fields the protobuf decoder reads carry one. */
  protobuf?: number;
  /** Protobuf: a zero value was sent on purpose (a Go pointer, or a struct JSON prints even when empty): keep it. */
  keepZero?: true;
  /**
   * `+listType` (OpenAPI `x-kubernetes-list-type`), where it says more than the
   * patch tags: server-side apply reads a `merge` list with a key as `map`, one
   * without as `set`, and any other list as `atomic`.
   */
  listType?: 'atomic' | 'set' | 'map';
  /** `+listMapKey` (`x-kubernetes-list-map-keys`): the keys of a `map` list; default: [patchMergeKey]. */
  listMapKeys?: string[];
  /** `+mapType=atomic` (`x-kubernetes-map-type`): a map owned and replaced whole by server-side apply. */
  mapType?: 'atomic';
}

export type FieldDef = [type: FieldType, description: string, options?: FieldOptions];

export interface TypeDef {
  group: Group;
  description: string;
  fields?: Record<string, FieldDef>;
  /** The OpenAPI name's last segment when it differs from the key. */
  name?: string;
  /**
   * A primitive alias (Time, IntOrString, Quantity): its OpenAPI type/format;
   * the two-typed ones are a `oneOf` without `type`, as upstream, so that
   * `kubectl explain` prints their name (`<IntOrString>`) rather than `<string>`.
   */
  primitive?: { type?: string; format?: string; oneOf?: { type: string }[] };
  /** A kind the apiserver decodes from protobuf bodies (kubectl's typed create); the fields it sends are numbered. */
  protobuf?: true;
  /** `+structType=atomic` (`x-kubernetes-map-type: atomic`): server-side apply owns and replaces the struct whole. */
  structType?: 'atomic';
}

// generated.proto numbers metadata 1 in every kind.
export const META_FIELD: FieldDef = ['ObjectMeta', 'Standard object metadata: name, namespace, labels, annotations and the fields the system sets.', { protobuf: 1 }];
export const KIND: FieldDef = ['string', 'The REST resource kind this object represents, in CamelCase. Set by clients, checked by the server.'];
export const API_VERSION: FieldDef = ['string', 'The versioned schema of this representation, e.g. "v1" or "apps/v1".'];

/** The fields of a top-level kind: apiVersion, kind, metadata, then its own. */
export const top = (fields: Record<string, FieldDef>): Record<string, FieldDef> => ({ apiVersion: API_VERSION, kind: KIND, metadata: META_FIELD, ...fields });

/** The fields every <X>Condition shares. */
export const cond = (what: string): Record<string, FieldDef> => ({
  type: ['string', `The type of ${what} condition.`, { required: true }],
  status: ['string', 'True, False or Unknown.', { required: true }],
  lastTransitionTime: ['Time', 'When the condition last changed status.'],
  reason: ['string', 'A one-word CamelCase reason for the last transition.'],
  message: ['string', 'A human-readable message about the last transition.'],
});
