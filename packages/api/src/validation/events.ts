// The checks a create through events.k8s.io/v1 adds to core/v1's
// (upstream: ValidateEventCreate for a request version newer than v1, with
// legacyValidateEvent's rules for an event that has an eventTime), on the
// events.k8s.io shape, with the field paths upstream reports.

import type { Event } from '../events/v1/types.js';
import type { FieldError } from '../meta/status.js';
import { invalid, required } from './field.js';
import { isQualifiedName } from './strings.js';

const LIMIT = 128;
const NOTE_LIMIT = 1024;

export function validateEventsEventCreate(e: Event): FieldError[] {
  const errs: FieldError[] = [];
  const ns = e.metadata.namespace ?? '';
  const regardingNs = e.regarding?.namespace ?? '';
  if (!regardingNs && ns !== 'default' && ns !== 'kube-system') errs.push(invalid('involvedObject.namespace', regardingNs, 'does not match event.namespace'));
  if (!e.reportingController) errs.push(required('reportingController'));
  for (const m of isQualifiedName(e.reportingController ?? '')) errs.push(invalid('reportingController', e.reportingController ?? '', m));
  if (!e.reportingInstance) errs.push(required('reportingInstance'));
  if ((e.reportingInstance?.length ?? 0) > LIMIT) errs.push(invalid('reportingInstance', '', `can have at most ${LIMIT} characters`));
  if (!e.action) errs.push(required('action'));
  if ((e.action?.length ?? 0) > LIMIT) errs.push(invalid('action', '', `can have at most ${LIMIT} characters`));
  if (!e.reason) errs.push(required('reason'));
  if ((e.reason?.length ?? 0) > LIMIT) errs.push(invalid('reason', '', `can have at most ${LIMIT} characters`));
  if ((e.note?.length ?? 0) > NOTE_LIMIT) errs.push(invalid('message', '', `can have at most ${NOTE_LIMIT} characters`));
  if (e.series) {
    if ((e.series.count ?? 0) < 2) errs.push(invalid('series.count', '', 'should be at least 2'));
    if (!e.series.lastObservedTime) errs.push(required('series.lastObservedTime'));
  }
  if (!e.eventTime) errs.push(required('eventTime'));
  if (e.type !== 'Normal' && e.type !== 'Warning') errs.push(invalid('type', '', `has invalid value: ${e.type ?? ''}`));
  if (e.deprecatedFirstTimestamp) errs.push(invalid('deprecatedFirstTimestamp', '', 'needs to be unset'));
  if (e.deprecatedLastTimestamp) errs.push(invalid('deprecatedLastTimestamp', '', 'needs to be unset'));
  if (e.deprecatedCount) errs.push(invalid('deprecatedCount', '', 'needs to be unset'));
  if (e.deprecatedSource?.component || e.deprecatedSource?.host) errs.push(invalid('deprecatedSource', '', 'needs to be unset'));
  return errs;
}
