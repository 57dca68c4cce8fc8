// Per-kind selectable fields and field-label conversion, as each upstream
// registry's ToSelectableFields / AddFieldLabelConversionsFor* define them.
import type { KubeObject } from '../meta/types.js';
import { lookupKind } from '../resources.js';
import { FieldSelectorError, type FieldSelector } from './selector.js';

type Extra = (obj: Record<string, any>) => Record<string, string>;

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** Kind-specific fields beyond metadata.name / metadata.namespace (core/v1 strategies). */
const EXTRA_FIELDS: Record<string, Extra> = {
  'v1/Pod': (p) => ({
    'spec.nodeName': str(p.spec?.nodeName),
    'spec.restartPolicy': str(p.spec?.restartPolicy),
    'spec.schedulerName': str(p.spec?.schedulerName),
    'spec.serviceAccountName': str(p.spec?.serviceAccountName),
    'spec.hostNetwork': String(p.spec?.hostNetwork === true),
    'status.phase': str(p.status?.phase),
    'status.podIP': str(p.status?.podIPs?.[0]?.ip ?? p.status?.podIP),
    'status.nominatedNodeName': str(p.status?.nominatedNodeName),
  }),
  'v1/Event': (e) => ({
    'involvedObject.kind': str(e.involvedObject?.kind),
    'involvedObject.namespace': str(e.involvedObject?.namespace),
    'involvedObject.name': str(e.involvedObject?.name),
    'involvedObject.uid': str(e.involvedObject?.uid),
    'involvedObject.apiVersion': str(e.involvedObject?.apiVersion),
    'involvedObject.resourceVersion': str(e.involvedObject?.resourceVersion),
    'involvedObject.fieldPath': str(e.involvedObject?.fieldPath),
    reason: str(e.reason),
    reportingComponent: str(e.reportingComponent),
    source: str(e.source?.component) || str(e.reportingComponent),
    type: str(e.type),
  }),
  'v1/Node': (n) => ({ 'spec.unschedulable': String(n.spec?.unschedulable === true) }),
  'v1/Secret': (s) => ({ type: str(s.type) }),
  'v1/Namespace': (n) => ({ name: str(n.metadata?.name), 'status.phase': str(n.status?.phase) }),
  'certificates.k8s.io/v1/CertificateSigningRequest': (c) => ({ 'spec.signerName': str(c.spec?.signerName) }),
};

/** Labels each kind's conversion function accepts; kinds not listed accept only metadata.name/namespace. */
const ACCEPTED: Record<string, readonly string[]> = {
  'v1/Pod': [
    'metadata.name',
    'metadata.namespace',
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  'v1/Event': [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
    'metadata.namespace',
    'metadata.name',
  ],
  // Upstream AddFieldLabelConversionsForEvent of events/v1: the events.k8s.io names, renamed below to core's.
  'events.k8s.io/v1/Event': ['reason', 'source', 'type', 'metadata.namespace', 'metadata.name'],
  'v1/Node': ['metadata.name', 'spec.unschedulable'],
  'v1/Secret': ['type', 'metadata.namespace', 'metadata.name'],
  'v1/Namespace': ['status.phase', 'metadata.name'],
  'certificates.k8s.io/v1/CertificateSigningRequest': ['metadata.name', 'spec.signerName'],
};

/** Labels renamed on the way in (old clients send spec.host for pods; events.k8s.io names core's fields otherwise). */
const RENAMED: Record<string, Record<string, string>> = {
  'v1/Pod': { 'spec.host': 'spec.nodeName' },
  // events.k8s.io/v1 objects are stored as core/v1 Events: its labels name the core fields.
  'events.k8s.io/v1/Event': {
    'regarding.kind': 'involvedObject.kind',
    'regarding.namespace': 'involvedObject.namespace',
    'regarding.name': 'involvedObject.name',
    'regarding.uid': 'involvedObject.uid',
    'regarding.apiVersion': 'involvedObject.apiVersion',
    'regarding.resourceVersion': 'involvedObject.resourceVersion',
    'regarding.fieldPath': 'involvedObject.fieldPath',
    reportingController: 'reportingComponent',
  },
};

const gvk = (apiVersion: string | undefined, kind: string | undefined): string => `${apiVersion ?? ''}/${kind ?? ''}`;

/** The fields a field selector can match on this object (ToSelectableFields + ObjectMetaFieldsSet). */
export function objectFields(obj: KubeObject): Record<string, string> {
  const f: Record<string, string> = { 'metadata.name': obj.metadata?.name ?? '' };
  const info = obj.apiVersion && obj.kind ? lookupKind(obj.apiVersion, obj.kind) : undefined;
  const namespaced = info ? info.namespaced : obj.metadata?.namespace !== undefined;
  if (namespaced) f['metadata.namespace'] = obj.metadata?.namespace ?? '';
  const extra = EXTRA_FIELDS[gvk(obj.apiVersion, obj.kind)];
  return extra ? { ...f, ...extra(obj as unknown as Record<string, unknown>) } : f;
}

/** The field labels a kind accepts in field selectors. */
export function selectableFields(apiVersion: string, kind: string): readonly string[] {
  return ACCEPTED[gvk(apiVersion, kind)] ?? ['metadata.name', 'metadata.namespace'];
}

/** ConvertFieldLabel: the label to match with, or an error in upstream's words for this kind. */
export function convertFieldLabel(apiVersion: string, kind: string, label: string): string {
  const k = gvk(apiVersion, kind);
  const renamed = RENAMED[k]?.[label];
  if (renamed) return renamed;
  const accepted = ACCEPTED[k];
  if (accepted) {
    if (accepted.includes(label)) return label;
    throw new FieldSelectorError(`field label not supported: ${label}`);
  }
  if (label === 'metadata.name' || label === 'metadata.namespace') return label;
  throw new FieldSelectorError(`"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"`);
}

/** Checks and converts every term of a selector for one kind (the apiserver's list/watch path). */
export function convertFieldSelector(apiVersion: string, kind: string, sel: FieldSelector): FieldSelector {
  return sel.transform((field, value) => ({ field: convertFieldLabel(apiVersion, kind, field), value }));
}
