// Indexed watch triggers (upstream: the registries' TriggerFunc, e.g. the pod
// registry's NodeNameTriggerFunc on spec.nodeName and the node registry's on
// metadata.name, used by the cacher's indexed watchers): a watch whose field
// selector pins that field is handed only the events whose old or new object
// carries the pinned value, so a thousand kubelets watching their own pods do
// not each look at every pod's change.

import { convertFieldSelector, parseFieldSelector, type KubeObject, type ResourceInfo } from '@kubelab/api';

/** A resource's trigger field and how to read it from an object. */
export interface TriggerField {
  field: string;
  valueOf(o: KubeObject): string;
}

const TRIGGERS: Readonly<Record<string, TriggerField>> = {
  '/pods': { field: 'spec.nodeName', valueOf: (o) => (o as { spec?: { nodeName?: string } }).spec?.nodeName ?? '' },
  '/nodes': { field: 'metadata.name', valueOf: (o) => o.metadata.name ?? '' },
};

/** The trigger field of a resource, if it has one. */
export function triggerFieldOf(info: Pick<ResourceInfo, 'group' | 'resource'>): TriggerField | undefined {
  return TRIGGERS[`${info.group}/${info.resource}`];
}

/** A watch's pinned trigger: the field's value an exact-match term of its field selector requires (after field label conversion). */
export interface WatchTrigger {
  value: string;
  valueOf(o: KubeObject): string;
}

/**
 * The trigger of a watch (pure): `spec.nodeName=node-1` (or `spec.host=…`,
 * which converts to it) on pods pins node-1; no field selector, another
 * field, or only `!=` terms pin nothing. An unparsable selector pins nothing
 * (the watch is refused before this is asked).
 */
export function watchTrigger(info: Pick<ResourceInfo, 'group' | 'resource' | 'version' | 'kind'>, fieldSelector: string | undefined): WatchTrigger | undefined {
  const t = triggerFieldOf(info);
  if (!t || !fieldSelector || fieldSelector.trim() === '') return undefined;
  let value: string | undefined;
  try {
    const apiVersion = info.group ? `${info.group}/${info.version}` : info.version;
    value = convertFieldSelector(apiVersion, info.kind, parseFieldSelector(fieldSelector)).requiresExactMatch(t.field);
  } catch {
    return undefined;
  }
  return value === undefined ? undefined : { value, valueOf: t.valueOf };
}
