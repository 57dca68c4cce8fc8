// CustomResourceDefinition validation (upstream: apiextensions
// validation.ValidateCustomResourceDefinition and its structural-schema
// check), as field errors in upstream's words.

import type { CustomResourceDefinition, CustomResourceDefinitionNames, CustomResourceDefinitionVersion, FieldError, JSONSchemaProps } from '@kubelab/api';
import { safeRegExp } from './structural.js';

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const KINDS = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array']);

function dnsLabelDetail(): string {
  return "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
}

/** Field errors of a CRD on create (`old` undefined) or update. */
export function validateCrd(crd: CustomResourceDefinition, old?: CustomResourceDefinition): FieldError[] {
  const errs: FieldError[] = [];
  const spec = crd.spec;
  if (!spec) return [{ type: 'FieldValueRequired', field: 'spec' }];
  const names = spec.names ?? { plural: '', kind: '' };
  const group = spec.group ?? '';
  if (crd.metadata.name && crd.metadata.name !== `${names.plural}.${group}`) {
    errs.push({ type: 'FieldValueInvalid', field: 'metadata.name', badValue: crd.metadata.name, detail: 'must be spec.names.plural+"."+spec.group' });
  }
  if (!group) errs.push({ type: 'FieldValueRequired', field: 'spec.group' });
  else if (!DNS1123_SUBDOMAIN.test(group))
    errs.push({
      type: 'FieldValueInvalid',
      field: 'spec.group',
      badValue: group,
      detail: "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
    });
  else if (!group.includes('.')) errs.push({ type: 'FieldValueInvalid', field: 'spec.group', badValue: group, detail: 'should be a domain with at least one dot' });
  if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') {
    if (!spec.scope) errs.push({ type: 'FieldValueRequired', field: 'spec.scope' });
    else errs.push({ type: 'FieldValueNotSupported', field: 'spec.scope', badValue: spec.scope, detail: 'supported values: "Cluster", "Namespaced"' });
  }
  errs.push(...validateNames(names, 'spec.names'));
  const versions = spec.versions ?? [];
  if (versions.length === 0) errs.push({ type: 'FieldValueRequired', field: 'spec.versions', detail: 'must have exactly one version marked as storage version' });
  else if (versions.filter((v) => v.storage).length !== 1)
    errs.push({ type: 'FieldValueInvalid', field: 'spec.versions', badValue: versions.map((v) => v.name), detail: 'must have exactly one version marked as storage version' });
  if (versions.length > 0 && !versions.some((v) => v.served))
    errs.push({ type: 'FieldValueInvalid', field: 'spec.versions', badValue: versions.map((v) => v.name), detail: 'must have at least one version marked as served' });
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    const p = `spec.versions[${i}]`;
    if (!v.name) errs.push({ type: 'FieldValueRequired', field: `${p}.name` });
    else if (!DNS1035_LABEL.test(v.name)) errs.push({ type: 'FieldValueInvalid', field: `${p}.name`, badValue: v.name, detail: dnsLabelDetail() });
    if (seen.has(v.name)) errs.push({ type: 'FieldValueInvalid', field: 'spec.versions', badValue: v.name, detail: 'must appear only once' });
    seen.add(v.name);
    errs.push(...validateVersion(v, p));
  });
  if (old?.spec) {
    if (old.spec.scope && spec.scope !== old.spec.scope && (old.status?.storedVersions?.length ?? 0) > 0) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.scope', badValue: spec.scope, detail: 'field is immutable' });
    }
    if (old.spec.group !== group) errs.push({ type: 'FieldValueInvalid', field: 'spec.group', badValue: group, detail: 'field is immutable' });
    if (old.spec.names?.plural !== names.plural) errs.push({ type: 'FieldValueInvalid', field: 'spec.names.plural', badValue: names.plural, detail: 'field is immutable' });
  }
  return errs;
}

function validateNames(n: CustomResourceDefinitionNames, p: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!n.plural) errs.push({ type: 'FieldValueRequired', field: `${p}.plural` });
  else if (!DNS1123_LABEL.test(n.plural)) errs.push({ type: 'FieldValueInvalid', field: `${p}.plural`, badValue: n.plural, detail: dnsLabelDetail() });
  if (n.singular && !DNS1123_LABEL.test(n.singular)) errs.push({ type: 'FieldValueInvalid', field: `${p}.singular`, badValue: n.singular, detail: dnsLabelDetail() });
  if (!n.kind) errs.push({ type: 'FieldValueRequired', field: `${p}.kind` });
  else if (!DNS1035_LABEL.test(n.kind.toLowerCase()))
    errs.push({ type: 'FieldValueInvalid', field: `${p}.kind`, badValue: n.kind, detail: 'may have mixed case, but should otherwise match: [a-z]([-a-z0-9]*[a-z0-9])?' });
  if (n.kind && n.listKind === n.kind) errs.push({ type: 'FieldValueInvalid', field: `${p}.listKind`, badValue: n.listKind, detail: 'kind and listKind may not be the same' });
  (n.shortNames ?? []).forEach((s, i) => {
    if (!DNS1123_LABEL.test(s)) errs.push({ type: 'FieldValueInvalid', field: `${p}.shortNames[${i}]`, badValue: s, detail: dnsLabelDetail() });
  });
  (n.categories ?? []).forEach((c, i) => {
    if (!DNS1123_LABEL.test(c)) errs.push({ type: 'FieldValueInvalid', field: `${p}.categories[${i}]`, badValue: c, detail: dnsLabelDetail() });
  });
  return errs;
}

function validateVersion(v: CustomResourceDefinitionVersion, p: string): FieldError[] {
  const errs: FieldError[] = [];
  const schema = v.schema?.openAPIV3Schema;
  const sp = `${p}.schema.openAPIV3Schema`;
  if (!schema) errs.push({ type: 'FieldValueRequired', field: sp, detail: 'schemas are required' });
  else {
    if (schema.type !== 'object') errs.push({ type: 'FieldValueInvalid', field: `${sp}.type`, badValue: schema.type ?? '', detail: 'must be object at the root' });
    errs.push(...structuralErrors(schema, sp, true));
  }
  (v.additionalPrinterColumns ?? []).forEach((c, i) => {
    const cp = `${p}.additionalPrinterColumns[${i}]`;
    if (!c.name) errs.push({ type: 'FieldValueRequired', field: `${cp}.name` });
    if (!c.jsonPath) errs.push({ type: 'FieldValueRequired', field: `${cp}.jsonPath` });
    if (!['integer', 'number', 'string', 'boolean', 'date'].includes(c.type)) {
      errs.push({ type: 'FieldValueNotSupported', field: `${cp}.type`, badValue: c.type, detail: 'supported values: "boolean", "date", "integer", "number", "string"' });
    }
  });
  const scale = v.subresources?.scale;
  if (scale) {
    const sc = `${p}.subresources.scale`;
    if (!scale.specReplicasPath?.startsWith('.spec.'))
      errs.push({ type: 'FieldValueInvalid', field: `${sc}.specReplicasPath`, badValue: scale.specReplicasPath ?? '', detail: 'should be a json path under .spec' });
    if (!scale.statusReplicasPath?.startsWith('.status.'))
      errs.push({ type: 'FieldValueInvalid', field: `${sc}.statusReplicasPath`, badValue: scale.statusReplicasPath ?? '', detail: 'should be a json path under .status' });
  }
  return errs;
}

/**
 * Why a schema is not structural (upstream: structuralschema's
 * validateStructural): every specified field has a type, unless it
 * preserves unknown fields or is an int-or-string.
 */
export function structuralErrors(s: JSONSchemaProps, p: string, root = false): FieldError[] {
  const errs: FieldError[] = [];
  const loose = s['x-kubernetes-preserve-unknown-fields'] === true || s['x-kubernetes-int-or-string'] === true;
  if (!s.type && !loose && !root) errs.push({ type: 'FieldValueRequired', field: `${p}.type`, detail: 'must not be empty for specified object fields' });
  if (s.type && !KINDS.has(s.type))
    errs.push({ type: 'FieldValueNotSupported', field: `${p}.type`, badValue: s.type, detail: 'supported values: "array", "boolean", "integer", "number", "object", "string"' });
  if (s.type === 'array' && !s.items) errs.push({ type: 'FieldValueRequired', field: `${p}.items`, detail: 'must be specified' });
  if (s.pattern !== undefined && !safeRegExp(s.pattern)) errs.push({ type: 'FieldValueInvalid', field: `${p}.pattern`, badValue: s.pattern, detail: 'must be a valid regular expression' });
  if (s.properties && isObj(s.additionalProperties)) errs.push({ type: 'FieldValueForbidden', field: `${p}.additionalProperties`, detail: 'additionalProperties and properties are mutual exclusive' });
  for (const [k, sub] of Object.entries(s.properties ?? {})) errs.push(...structuralErrors(sub, `${p}.properties[${k}]`));
  if (s.items) errs.push(...structuralErrors(s.items, `${p}.items`));
  if (isObj(s.additionalProperties)) errs.push(...structuralErrors(s.additionalProperties, `${p}.additionalProperties`));
  return errs;
}

const isObj = (v: unknown): v is JSONSchemaProps => typeof v === 'object' && v !== null && !Array.isArray(v);
