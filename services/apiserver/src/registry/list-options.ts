// Validation of a list's or watch's options (upstream: ValidateListOptions in
// apimachinery's meta/internalversion/validation, with the WatchList feature
// on): which resourceVersionMatch / sendInitialEvents combinations make sense.
// Pure: the store throws the 422 these errors make.

import { invalid, type FieldError, type StatusError } from '@kubelab/api';

export type ResourceVersionMatch = 'Exact' | 'NotOlderThan';

export interface ListOptionsToCheck {
  resourceVersion?: string | undefined;
  resourceVersionMatch?: string | undefined;
  continue?: string | undefined;
  sendInitialEvents?: boolean | undefined;
}

const forbidden = (detail: string): FieldError => ({ type: 'FieldValueForbidden', field: 'resourceVersionMatch', detail });
const notSupported = (value: string, supported: string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field: 'resourceVersionMatch',
  badValue: value,
  detail: `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
});

/** The field errors of a list's options (upstream's messages, in upstream's order). */
export function listOptionsErrors(o: ListOptionsToCheck): FieldError[] {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch ?? '';
  if (match !== '') {
    if (!o.resourceVersion) errs.push(forbidden('resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (o.continue) errs.push(forbidden('resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') errs.push(notSupported(match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && o.resourceVersion === '0') errs.push(forbidden('resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (o.sendInitialEvents !== undefined) errs.push({ type: 'FieldValueForbidden', field: 'sendInitialEvents', detail: 'sendInitialEvents is forbidden for list' });
  return errs;
}

/** The field errors of a watch's options (the WatchList feature is on, as upstream's default since 1.32). */
export function watchOptionsErrors(o: ListOptionsToCheck): FieldError[] {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch ?? '';
  if (o.sendInitialEvents !== undefined && match !== 'NotOlderThan') errs.push(forbidden('sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  if (match !== '') {
    if (o.sendInitialEvents === undefined) errs.push(forbidden('resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== 'NotOlderThan') errs.push(notSupported(match, ['NotOlderThan']));
    if (o.continue) errs.push(forbidden('resourceVersionMatch is forbidden when continue is provided'));
  }
  return errs;
}

/** The 422 upstream answers for invalid list options: `ListOptions.meta.k8s.io "" is invalid: ...`. */
export function invalidListOptions(errs: FieldError[]): StatusError {
  const e = invalid('ListOptions', 'meta.k8s.io', '', errs);
  // details.name is omitempty upstream: no name here.
  delete e.status.details?.name;
  return e;
}
