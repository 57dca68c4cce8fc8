// StatusError ⇄ gRPC status, in ONE place for servers and clients: the gRPC
// code mirrors the HTTP code and the trailing metadata `kubelab-status`
// carries the full metav1.Status JSON.

import { Metadata, status as GrpcCode, type ServiceError } from '@grpc/grpc-js';
import { toStatus, StatusError, type Status, type StatusReason } from '@kubelab/api';

export const STATUS_METADATA_KEY = 'kubelab-status';

/** The gRPC code for a metav1.Status (reason first, then HTTP code). */
export function grpcCodeForStatus(s: Pick<Status, 'code' | 'reason'>): GrpcCode {
  switch (s.reason) {
    case 'NotFound':
      return GrpcCode.NOT_FOUND;
    case 'AlreadyExists':
      return GrpcCode.ALREADY_EXISTS;
    case 'Conflict':
      return GrpcCode.ABORTED;
    case 'Invalid':
    case 'BadRequest':
    case 'UnsupportedMediaType':
    case 'NotAcceptable':
    case 'MethodNotAllowed':
      return GrpcCode.INVALID_ARGUMENT;
    case 'Expired':
    case 'Gone':
      return GrpcCode.OUT_OF_RANGE;
    case 'RequestEntityTooLarge':
    case 'TooManyRequests':
      return GrpcCode.RESOURCE_EXHAUSTED;
    case 'Forbidden':
      return GrpcCode.PERMISSION_DENIED;
    case 'Unauthorized':
      return GrpcCode.UNAUTHENTICATED;
    case 'Timeout':
      return GrpcCode.DEADLINE_EXCEEDED;
    case 'ServiceUnavailable':
      return GrpcCode.UNAVAILABLE;
    case 'InternalError':
      return GrpcCode.INTERNAL;
    default:
      break;
  }
  switch (s.code) {
    case 400:
    case 422:
      return GrpcCode.INVALID_ARGUMENT;
    case 401:
      return GrpcCode.UNAUTHENTICATED;
    case 403:
      return GrpcCode.PERMISSION_DENIED;
    case 404:
      return GrpcCode.NOT_FOUND;
    case 409:
      return GrpcCode.ABORTED;
    case 410:
      return GrpcCode.OUT_OF_RANGE;
    case 413:
    case 429:
      return GrpcCode.RESOURCE_EXHAUSTED;
    case 503:
      return GrpcCode.UNAVAILABLE;
    case 504:
      return GrpcCode.DEADLINE_EXCEEDED;
    case 501:
      return GrpcCode.UNIMPLEMENTED;
    default:
      return GrpcCode.INTERNAL;
  }
}

/** JSON with every non-ASCII character escaped: gRPC metadata values must be printable ASCII. */
export function asciiJson(v: unknown): string {
  return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Any thrown value as a gRPC error with the Status in trailing metadata. */
export function statusToGrpc(err: unknown): Partial<ServiceError> & { code: GrpcCode; details: string; metadata: Metadata } {
  const s = toStatus(err);
  const metadata = new Metadata();
  metadata.set(STATUS_METADATA_KEY, asciiJson(s));
  return { code: grpcCodeForStatus(s), details: s.message ?? s.reason ?? `status ${s.code}`, metadata };
}

const HTTP_FOR_GRPC: Partial<Record<GrpcCode, [number, StatusReason]>> = {
  [GrpcCode.NOT_FOUND]: [404, 'NotFound'],
  [GrpcCode.ALREADY_EXISTS]: [409, 'AlreadyExists'],
  [GrpcCode.ABORTED]: [409, 'Conflict'],
  [GrpcCode.INVALID_ARGUMENT]: [400, 'BadRequest'],
  [GrpcCode.OUT_OF_RANGE]: [410, 'Expired'],
  [GrpcCode.FAILED_PRECONDITION]: [410, 'Expired'],
  [GrpcCode.RESOURCE_EXHAUSTED]: [429, 'TooManyRequests'],
  [GrpcCode.PERMISSION_DENIED]: [403, 'Forbidden'],
  [GrpcCode.UNAUTHENTICATED]: [401, 'Unauthorized'],
  [GrpcCode.DEADLINE_EXCEEDED]: [504, 'Timeout'],
  [GrpcCode.UNAVAILABLE]: [503, 'ServiceUnavailable'],
};

/**
 * The reverse, for clients: the Status from `kubelab-status` when present,
 * else one synthesized from the gRPC code (e.g. UNAVAILABLE when the
 * apiserver is down), as a StatusError.
 */
export function grpcToStatus(err: Pick<ServiceError, 'code' | 'details'> & { metadata?: Metadata }): StatusError {
  const raw = err.metadata?.get(STATUS_METADATA_KEY)?.[0];
  if (raw !== undefined) {
    try {
      const s = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8')) as Status;
      if (s && s.kind === 'Status' && typeof s.code === 'number') return new StatusError(s, { cause: err });
    } catch {
      // fall through to the code
    }
  }
  const [code, reason] = HTTP_FOR_GRPC[err.code] ?? [500, 'InternalError'];
  const message = err.details || `gRPC status ${GrpcCode[err.code] ?? err.code}`;
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, reason, message }, { cause: err });
}
