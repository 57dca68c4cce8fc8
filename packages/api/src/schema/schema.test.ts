import { describe, expect, it } from 'vitest';
import { PROTOBUF_NUMBERS, SCHEMA, elementType, isPrimitiveType, structOf } from './index.js';
import { API_VERSION, KIND } from './definition.js';

// The rules a schema entry must follow for the derivations (patch metadata,
// protobuf messages, OpenAPI) to hold.

const fields = Object.entries(SCHEMA).flatMap(([type, def]) => Object.entries(def.fields ?? {}).map(([field, f]) => ({ type, field, def: f })));

describe('the schema', () => {
  it('every field type is a primitive or a described type', () => {
    const unknown = fields.filter(({ def: [t] }) => !isPrimitiveType(elementType(t)) && !SCHEMA[elementType(t)]).map(({ type, field }) => `${type}.${field}`);
    expect(unknown).toEqual([]);
  });

  it('a patchMergeKey names a field of the item it merges, on a list merged by strategy', () => {
    const wrong = fields
      .filter(({ def: [t, , o] }) => o?.patchMergeKey && (!o.patchStrategy?.includes('merge') || (structOf(t) && !structOf(t)!.fields![o.patchMergeKey])))
      .map(({ type, field }) => `${type}.${field}`);
    expect(wrong).toEqual([]);
  });

  it('protobuf numbers are unique within a type, and keepZero goes with a number', () => {
    for (const [type, def] of Object.entries(SCHEMA)) {
      const numbers = Object.values(def.fields ?? {}).flatMap(([, , o]) => (o?.protobuf === undefined ? [] : [o.protobuf]));
      expect(new Set(numbers).size, type).toBe(numbers.length);
      for (const [field, [, , o]] of Object.entries(def.fields ?? {})) if (o?.keepZero) expect(o.protobuf, `${type}.${field}`).toBeDefined();
    }
  });

  it("every field has its generated.proto number (a kind's apiVersion and kind excepted), and inline numbers agree", () => {
    // TypeMeta (the shared KIND and API_VERSION fields) travels in runtime.Unknown, not in the message.
    // apiextensions.k8s.io (CustomResourceDefinition) is not numbered yet: its kind answers JSON.
    const missing = fields.filter(({ type, field, def }) => SCHEMA[type]!.group !== 'apiextensions' && PROTOBUF_NUMBERS[type]?.[field] === undefined && def !== KIND && def !== API_VERSION);
    expect(missing.map(({ type, field }) => `${type}.${field}`)).toEqual([]);
    // EphemeralContainer shares Container's field definitions, but upstream embeds them (EphemeralContainerCommon, field 1): the table's pairs win.
    const disagree = fields.filter(
      ({ type, field, def: [, , o] }) => type !== 'EphemeralContainer' && SCHEMA[type]!.group !== 'apiextensions' && o?.protobuf !== undefined && PROTOBUF_NUMBERS[type]?.[field] !== o.protobuf,
    );
    expect(disagree.map(({ type, field }) => `${type}.${field}`)).toEqual([]);
    expect(Object.keys(PROTOBUF_NUMBERS).filter((t) => !SCHEMA[t])).toEqual([]);
  });

  it('the protobuf kinds number their metadata', () => {
    const kinds = Object.entries(SCHEMA).filter(([, d]) => d.protobuf);
    expect(kinds.map(([k]) => k)).toEqual([
      'Namespace',
      'Service',
      'ComponentStatus',
      'ConfigMap',
      'Secret',
      'ServiceAccount',
      'Deployment',
      'Role',
      'ClusterRole',
      'RoleBinding',
      'ClusterRoleBinding',
      'TokenRequest',
      'SubjectAccessReview',
      'LocalSubjectAccessReview',
      'SelfSubjectAccessReview',
      'SelfSubjectRulesReview',
      'SelfSubjectReview',
      'CertificateSigningRequest',
      'Job',
      'CronJob',
      'HorizontalPodAutoscalerV1',
    ]);
    for (const [, d] of kinds) expect(d.fields?.metadata?.[2]?.protobuf).toBe(1);
  });
});
