// Checks of the write options that concern field managers (upstream
// apimachinery validation: ValidateFieldManager, ValidatePatchOptions).

import type { FieldError } from '@kubelab/api';
import { MAX_MANAGER_LENGTH } from './managed.js';

/** fieldManager: at most 128 bytes of printable characters. */
export function fieldManagerErrors(manager: string | undefined, path = 'fieldManager'): FieldError[] {
  if (manager === undefined || manager === '') return [];
  if (Buffer.byteLength(manager) > MAX_MANAGER_LENGTH) return [{ type: 'FieldValueTooLong', field: path, detail: `must have at most ${MAX_MANAGER_LENGTH} bytes` }];
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(manager)) return [{ type: 'FieldValueInvalid', field: path, badValue: manager, detail: 'invalid characters' }];
  return [];
}

/** PatchOptions: apply needs a fieldManager; force is only for apply. */
export function patchOptionsErrors(apply: boolean, fieldManager: string | undefined, force: boolean | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (apply) {
    if (!fieldManager) errs.push({ type: 'FieldValueRequired', field: 'fieldManager', detail: 'is required for apply patch' });
  } else if (force !== undefined) {
    errs.push({ type: 'FieldValueForbidden', field: 'force', detail: 'may not be specified for non-apply patch' });
  }
  errs.push(...fieldManagerErrors(fieldManager));
  return errs;
}
