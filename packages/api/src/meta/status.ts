// metav1.Status and the typed errors that become it, mirroring
// k8s.io/apimachinery/pkg/api/errors. One place maps errors to the wire.

export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'BadRequest'
  | 'Gone'
  | 'Expired'
  | 'Forbidden'
  | 'Unauthorized'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'UnsupportedMediaType'
  | 'RequestEntityTooLarge'
  | 'TooManyRequests'
  | 'Timeout'
  | 'ServiceUnavailable'
  | 'InternalError'
  | '';

/** metav1.CauseType values used in field errors (field.ErrorType strings). */
export type CauseType =
  | 'FieldValueRequired'
  | 'FieldValueNotFound'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'InternalError'
  | 'UnexpectedServerResponse'
  | 'FieldManagerConflict'
  | 'ResourceVersionTooLarge';

export interface StatusCause {
  reason?: CauseType | string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { resourceVersion?: string; continue?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

const STATUS_ERROR = Symbol.for('kubelab.StatusError');

/** An error the API returns to its caller as a metav1.Status. */
export class StatusError extends Error {
  readonly [STATUS_ERROR] = true;
  override name = 'StatusError';
  constructor(
    readonly status: Status,
    options?: { cause?: unknown },
  ) {
    super(status.message ?? status.reason ?? `status ${status.code}`, options);
  }

  get code(): number {
    return this.status.code;
  }
  get reason(): StatusReason {
    return this.status.reason ?? '';
  }

  /** Recognises StatusErrors across copies of this package. */
  static isInstance(e: unknown): e is StatusError {
    return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[STATUS_ERROR] === true;
  }
}

function failure(code: number, reason: StatusReason, message: string, details?: StatusDetails): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) s.details = details;
  return s;
}

/** A resource's qualified name as errors print it: `pods`, `deployments.apps`. */
export interface GroupResource {
  group: string;
  resource: string;
}

export function qualifiedResource(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

function details(gr: GroupResource, name: string): StatusDetails {
  const d: StatusDetails = { name, kind: gr.resource };
  if (gr.group) d.group = gr.group;
  return d;
}

export function notFound(gr: GroupResource, name: string): StatusError {
  return new StatusError(failure(404, 'NotFound', `${qualifiedResource(gr)} "${name}" not found`, details(gr, name)));
}

/** A path the server serves nothing at (upstream: the 404 of a resource it does not know, `details: {}`). */
export function resourceNotServed(): StatusError {
  return new StatusError(failure(404, 'NotFound', 'the server could not find the requested resource', {}));
}

export function alreadyExists(gr: GroupResource, name: string): StatusError {
  return new StatusError(failure(409, 'AlreadyExists', `${qualifiedResource(gr)} "${name}" already exists`, details(gr, name)));
}

export function conflict(gr: GroupResource, name: string, why: string): StatusError {
  return new StatusError(failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`, details(gr, name)));
}

/** The upstream text for a stale resourceVersion on update. */
export const OPTIMISTIC_LOCK_MESSAGE = 'the object has been modified; please apply your changes to the latest version and try again';

/** A field.Error: one problem with one field. */
export interface FieldError {
  type: CauseType;
  field: string;
  /** The value that was rejected, if any; printed as upstream does. */
  badValue?: unknown;
  detail?: string;
}

/** The text field.Error.Error() prints: `spec.x: Invalid value: "y": detail`. */
export function fieldErrorMessage(e: FieldError): string {
  const label: Record<string, string> = {
    FieldValueRequired: 'Required value',
    FieldValueNotFound: 'Not found',
    FieldValueInvalid: 'Invalid value',
    FieldValueNotSupported: 'Unsupported value',
    FieldValueDuplicate: 'Duplicate value',
    FieldValueForbidden: 'Forbidden',
    FieldValueTooLong: 'Too long',
    FieldValueTooMany: 'Too many',
    FieldValueTypeInvalid: 'Invalid value',
    InternalError: 'Internal error',
  };
  let msg = label[e.type] ?? e.type;
  const valueHidden = e.type === 'FieldValueRequired' || e.type === 'FieldValueForbidden' || e.type === 'FieldValueTooLong' || e.type === 'InternalError';
  if (!valueHidden && e.badValue !== undefined) msg += `: ${formatBadValue(e.badValue)}`;
  if (e.detail) msg += `: ${e.detail}`;
  return msg;
}

/** A rejected value as Go prints it in field errors: strings quoted, numbers bare, string lists as `[]string{"a", "b"}`. */
export function formatBadValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v === null) return 'null';
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return `[]string{${v.map((x) => JSON.stringify(x)).join(', ')}}`;
  if (isStringMap(v)) return goStringMap(v);
  if (typeof v === 'object' && typeof (v as { toString?: unknown }).toString === 'function' && (v as object).toString !== Object.prototype.toString && !Array.isArray(v)) return String(v);
  return JSON.stringify(v);
}

function isStringMap(v: unknown): v is Record<string, string> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype && Object.values(v).every((x) => typeof x === 'string');
}

/** Go's %q of a []string: `["a" "b"]` (the texts kubelab prints this way are printable; JSON quoting matches %q for them). */
export function goQuotedList(list: readonly string[] | undefined): string {
  return `[${(list ?? []).map((s) => JSON.stringify(s)).join(' ')}]`;
}

/** Go's %#v of a map[string]string: keys sorted, `map[string]string{"a":"b", "c":"d"}`. */
export function goStringMap(m: Record<string, string> | undefined): string {
  if (!m) return 'map[string]string(nil)';
  const entries = Object.keys(m)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(m[k])}`);
  return `map[string]string{${entries.join(', ')}}`;
}

/** 422 Invalid with one cause per field error, as kubectl prints them. */
export function invalid(kind: string, group: string, name: string, errs: FieldError[]): StatusError {
  const causes = errs.map((e) => ({ reason: e.type, message: fieldErrorMessage(e), field: e.field }));
  const summary = errs.map((e) => `${e.field}: ${fieldErrorMessage(e)}`);
  const joined = summary.length === 1 ? summary[0] : `[${summary.join(', ')}]`;
  const d: StatusDetails = { name, kind, causes };
  if (group) d.group = group;
  const gk = group ? `${kind}.${group}` : kind;
  return new StatusError(failure(422, 'Invalid', `${gk} "${name}" is invalid: ${joined}`, d));
}

export function badRequest(message: string): StatusError {
  return new StatusError(failure(400, 'BadRequest', message));
}

/** 410 for a watch or list from a resourceVersion the cache no longer holds. */
export function expired(message: string): StatusError {
  return new StatusError(failure(410, 'Expired', message));
}

export function gone(message: string): StatusError {
  return new StatusError(failure(410, 'Gone', message));
}

export function forbidden(gr: GroupResource, name: string, why: string): StatusError {
  const what = name ? `${qualifiedResource(gr)} "${name}"` : qualifiedResource(gr);
  return new StatusError(failure(403, 'Forbidden', `${what} is forbidden: ${why}`, details(gr, name)));
}

/** 401 as the authentication filter answers it (kubectl: "You must be logged in to the server (Unauthorized)"). */
export function unauthorized(message = 'Unauthorized'): StatusError {
  return new StatusError(failure(401, 'Unauthorized', message));
}

export function methodNotAllowed(message: string): StatusError {
  return new StatusError(failure(405, 'MethodNotAllowed', message));
}

/** 415 for a body in a format the endpoint does not read, listing the ones it does (upstream: negotiation.NewUnsupportedMediaTypeError). */
export function unsupportedMediaType(accepted: readonly string[]): StatusError {
  return new StatusError(failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`));
}

export function requestEntityTooLarge(message: string): StatusError {
  return new StatusError(failure(413, 'RequestEntityTooLarge', message));
}

export function tooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return new StatusError(failure(429, 'TooManyRequests', message, { retryAfterSeconds }));
}

export function serviceUnavailable(message: string): StatusError {
  return new StatusError(failure(503, 'ServiceUnavailable', message));
}

export function timeout(message: string): StatusError {
  return new StatusError(failure(504, 'Timeout', message));
}

export function internalError(err: unknown): StatusError {
  const message = err instanceof Error ? err.message : String(err);
  return new StatusError(failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }), { cause: err });
}

/** Any thrown value as a Status: StatusErrors as they are, the rest as 500. */
export function toStatus(err: unknown): Status {
  return StatusError.isInstance(err) ? err.status : internalError(err).status;
}

export function successStatus(details?: StatusDetails): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 };
  if (details) s.details = details;
  return s;
}

export const isNotFound = (e: unknown): boolean => StatusError.isInstance(e) && e.reason === 'NotFound';
export const isAlreadyExists = (e: unknown): boolean => StatusError.isInstance(e) && e.reason === 'AlreadyExists';
export const isConflict = (e: unknown): boolean => StatusError.isInstance(e) && e.reason === 'Conflict';
export const isInvalid = (e: unknown): boolean => StatusError.isInstance(e) && e.reason === 'Invalid';
export const isExpired = (e: unknown): boolean => StatusError.isInstance(e) && (e.reason === 'Expired' || e.reason === 'Gone');
