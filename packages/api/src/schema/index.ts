// kubelab's one description of the object model, the counterpart of the Go
// structs of k8s.io/api and k8s.io/apimachinery with their struct tags (see
// definition.ts for the format and for how to add a kind). It lives in
// @kubelab/api because the patch code here derives from it and the interfaces
// here are tested against it; the apiserver's REST handlers, registry and
// gRPC server all import it from below, and clients can too.

import { APIEXTENSIONS_TYPES } from './apiextensions.js';
import { APIREGISTRATION_TYPES } from './apiregistration.js';
import { APPS_TYPES } from './apps.js';
import { AUTHENTICATION_TYPES } from './authentication.js';
import { AUTH_TYPES } from './auth.js';
import { BATCH_TYPES } from './batch.js';
import { CERTIFICATES_TYPES } from './certificates.js';
import { CORE_TYPES } from './core.js';
import { NODE_TYPES } from './core-node.js';
import { POD_TYPES } from './core-pod.js';
import { type TypeDef } from './definition.js';
import { EVENTS_TYPES } from './events.js';
import { GROUP_TYPES } from './groups.js';
import { META_TYPES } from './meta.js';
import { POLICY_TYPES } from './policy.js';
import { AUTOSCALING_TYPES } from './autoscaling.js';
import { SCHEDULING_TYPES } from './scheduling.js';
import { FLOWCONTROL_TYPES } from './flowcontrol.js';
import { LIMIT_TYPES } from './core-limits.js';
import { QUOTA_TYPES } from './core-quota.js';
import { PROTOBUF_NUMBERS, type ProtobufNumber } from './protobuf-numbers.js';
import { RBAC_TYPES } from './rbac.js';
import { STORAGE_TYPES } from './storage.js';
import { NETWORKING_TYPES } from './networking.js';

export type { FieldDef, FieldOptions, FieldType, Group, PatchStrategy, PrimitiveType, TypeDef } from './definition.js';
export { isPrimitiveType } from './definition.js';
export { PROTOBUF_NUMBERS, type ProtobufNumber } from './protobuf-numbers.js';

/** Type name (the Go struct name) → its description; the order is the OpenAPI documents' order. */
export const SCHEMA: Readonly<Record<string, TypeDef>> = {
  ...META_TYPES,
  ...POD_TYPES,
  ...NODE_TYPES,
  ...CORE_TYPES,
  ...APPS_TYPES,
  ...GROUP_TYPES,
  ...RBAC_TYPES,
  ...AUTHENTICATION_TYPES,
  ...AUTH_TYPES,
  ...CERTIFICATES_TYPES,
  ...EVENTS_TYPES,
  ...APIEXTENSIONS_TYPES,
  ...APIREGISTRATION_TYPES,
  ...BATCH_TYPES,
  ...STORAGE_TYPES,
  ...POLICY_TYPES,
  ...SCHEDULING_TYPES,
  ...FLOWCONTROL_TYPES,
  ...LIMIT_TYPES,
  ...QUOTA_TYPES,
  ...AUTOSCALING_TYPES,
  ...NETWORKING_TYPES,
};

/** The OpenAPI component name of a type, e.g. io.k8s.api.core.v1.Pod. */
export function openapiName(typeName: string): string {
  const t = SCHEMA[typeName];
  if (!t) throw new Error(`unknown schema type ${typeName}`);
  const last = t.name ?? typeName;
  switch (t.group) {
    case 'meta':
      return `io.k8s.apimachinery.pkg.apis.meta.v1.${last}`;
    case 'intstr':
      return `io.k8s.apimachinery.pkg.util.intstr.${last}`;
    case 'resource':
      return `io.k8s.apimachinery.pkg.api.resource.${last}`;
    case 'apiextensions':
      return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.${last}`;
    case 'apiregistration':
      return `io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.${last}`;
    case 'autoscalingv2':
      return `io.k8s.api.autoscaling.v2.${last}`;
    default:
      return `io.k8s.api.${t.group}.v1.${last}`;
  }
}

/** The type of one item of a `[]T` or one value of a `map[string]T`; the type itself otherwise. */
export function elementType(type: string): string {
  if (type.startsWith('[]')) return type.slice(2);
  if (type.startsWith('map[string]')) return type.slice('map[string]'.length);
  return type;
}

/** The described struct of a field type (`PodSpec`, `[]Container`), or undefined for primitives, maps and free-form objects. */
export function structOf(type: string): TypeDef | undefined {
  if (type.startsWith('map[string]')) return undefined;
  const t = SCHEMA[elementType(type)];
  return t?.fields ? t : undefined;
}

/** A field's generated.proto number (a pair for a field of an embedded struct); undefined for TypeMeta's apiVersion/kind of a kind. */
export function protobufNumber(typeName: string, field: string): ProtobufNumber | undefined {
  return PROTOBUF_NUMBERS[typeName]?.[field] ?? SCHEMA[typeName]?.fields?.[field]?.[2]?.protobuf;
}
