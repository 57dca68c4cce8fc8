// field.ErrorList builders (k8s.io/apimachinery/pkg/util/validation/field):
// one constructor per error type, paths as plain strings (`spec.containers[0].image`).
import type { FieldError } from '../meta/status.js';

export type { FieldError };

/** Child path: `spec` + `containers` → `spec.containers`; an empty parent yields the child. */
export const child = (path: string, ...names: string[]): string => names.reduce((p, n) => (p ? `${p}.${n}` : n), path);
/** Indexed path: `spec.containers[0]`. */
export const index = (path: string, i: number): string => `${path}[${i}]`;
/** Keyed path: `metadata.labels[app]`. */
export const key = (path: string, k: string): string => `${path}[${k}]`;

export const required = (field: string, detail = ''): FieldError => withDetail({ type: 'FieldValueRequired', field }, detail);

export const invalid = (field: string, badValue: unknown, detail = ''): FieldError => withDetail({ type: 'FieldValueInvalid', field, badValue }, detail);

/** NotSupported lists the valid values quoted, as upstream: `supported values: "A", "B"`. */
export const notSupported = (field: string, badValue: unknown, valid: readonly string[]): FieldError =>
  withDetail({ type: 'FieldValueNotSupported', field, badValue }, valid.length ? `supported values: ${valid.map((v) => JSON.stringify(v)).join(', ')}` : '');

export const duplicate = (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, badValue });

export const forbidden = (field: string, detail: string): FieldError => withDetail({ type: 'FieldValueForbidden', field }, detail);

export const tooLong = (field: string, maxLength: number): FieldError => ({
  type: 'FieldValueTooLong',
  field,
  detail: `may not be more than ${maxLength} bytes`,
});

export const tooMany = (field: string, actual: number, max: number): FieldError => ({
  type: 'FieldValueTooMany',
  field,
  detail: `must have at most ${max} items`,
  badValue: actual,
});

export const internalError = (field: string, err: unknown): FieldError => ({
  type: 'InternalError',
  field,
  detail: err instanceof Error ? err.message : String(err),
});

function withDetail(e: FieldError, detail: string): FieldError {
  if (detail) e.detail = detail;
  return e;
}

export const notFound = (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueNotFound', field, badValue });

/** A bad value that prints as given (Go's %#v of a struct), e.g. `v1.LabelSelector{...}`. */
export const goValue = (text: string): { toString(): string } => ({ toString: () => text });
