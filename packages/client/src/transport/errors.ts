// gRPC statuses back to metav1.Status errors: the apiserver puts the Status
// JSON in the `kubelab-status` trailer; without it the code decides
// (the inverse of the server's one mapping table).

import * as grpc from '@grpc/grpc-js';
import { StatusError, type Status, type StatusReason } from '@kubelab/api';

export const STATUS_TRAILER = 'kubelab-status';

const BY_CODE: Partial<Record<grpc.status, [number, StatusReason]>> = {
  [grpc.status.NOT_FOUND]: [404, 'NotFound'],
  [grpc.status.ALREADY_EXISTS]: [409, 'AlreadyExists'],
  [grpc.status.ABORTED]: [409, 'Conflict'],
  [grpc.status.INVALID_ARGUMENT]: [400, 'BadRequest'],
  [grpc.status.FAILED_PRECONDITION]: [410, 'Expired'],
  [grpc.status.OUT_OF_RANGE]: [410, 'Expired'],
  [grpc.status.PERMISSION_DENIED]: [403, 'Forbidden'],
  [grpc.status.UNAUTHENTICATED]: [401, 'Unauthorized'],
  [grpc.status.RESOURCE_EXHAUSTED]: [429, 'TooManyRequests'],
  [grpc.status.DEADLINE_EXCEEDED]: [504, 'Timeout'],
  [grpc.status.UNAVAILABLE]: [503, 'ServiceUnavailable'],
  [grpc.status.UNIMPLEMENTED]: [405, 'MethodNotAllowed'],
};

function isServiceError(e: unknown): e is grpc.ServiceError {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'number' && 'metadata' in e;
}

function trailerStatus(err: grpc.ServiceError): Status | undefined {
  const raw = err.metadata?.get(STATUS_TRAILER)?.[0];
  if (raw === undefined) return undefined;
  try {
    const s = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8')) as Status;
    return s && s.kind === 'Status' && typeof s.code === 'number' ? s : undefined;
  } catch {
    return undefined;
  }
}

/** The StatusError a failed call stands for; the gRPC error stays as its cause. */
export function toStatusError(err: unknown): StatusError {
  if (StatusError.isInstance(err)) return err;
  if (!isServiceError(err)) {
    const message = err instanceof Error ? err.message : String(err);
    return new StatusError(failure(500, 'InternalError', message), { cause: err });
  }
  const fromTrailer = trailerStatus(err);
  if (fromTrailer) return new StatusError(fromTrailer, { cause: err });
  const [code, reason] = BY_CODE[err.code] ?? [500, 'InternalError' as StatusReason];
  return new StatusError(failure(code, reason, err.details || err.message), { cause: err });
}

function failure(code: number, reason: StatusReason, message: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

/** The gRPC code behind an error from this client, if it came off the wire. */
export function grpcCodeOf(err: unknown): grpc.status | undefined {
  if (isServiceError(err)) return err.code;
  const cause = (err as { cause?: unknown } | undefined)?.cause;
  return isServiceError(cause) ? cause.code : undefined;
}

/** The apiserver could not be reached (worth retrying an idempotent call). */
export function isUnavailable(err: unknown): boolean {
  return grpcCodeOf(err) === grpc.status.UNAVAILABLE;
}
