// The LimitRanger admission plugin (plugin/pkg/admission/limitranger): a
// new pod gets its namespace's LimitRange defaults (mutating), then must
// fit their min, max and ratio bounds (validating), or is Forbidden with
// every violation listed.

import { applyLimitRangeDefaults, forbidden, limitRangeViolations, lookupResource, storagePrefix, type LimitRange, type Pod } from '@kubelab/api';
import type { WatchCache } from '../cache/watch-cache.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

const isPodCreate = (a: AdmissionAttributes) => a.operation === 'CREATE' && a.info.group === '' && a.info.resource === 'pods' && !a.subresource && !!a.object;

/** utilerrors.NewAggregate's text: one error as it is, several in brackets. */
export const aggregate = (errs: readonly string[]): string => (errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);

export function limitRanger(rangesIn: (namespace: string) => LimitRange[]): AdmissionPlugin {
  return {
    name: 'LimitRanger',
    admit(a) {
      if (!isPodCreate(a)) return;
      const ranges = rangesIn(a.namespace);
      if (ranges.length) applyLimitRangeDefaults(a.object as unknown as Pod, ranges);
    },
    validate(a) {
      if (!isPodCreate(a)) return;
      const errs = limitRangeViolations(a.object as unknown as Pod, rangesIn(a.namespace));
      if (errs.length) throw forbidden(a.info, a.name, aggregate(errs));
    },
  };
}

/** The namespace's LimitRanges as the watch cache holds them. */
export function limitRangesFromCache(cache: WatchCache): (namespace: string) => LimitRange[] {
  const prefix = storagePrefix(lookupResource('', 'v1', 'limitranges')!);
  return (namespace) => cache.list(prefix, namespace).map((e) => e.obj as LimitRange);
}
