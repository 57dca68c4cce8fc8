// gRPC failures back to metav1.Status errors, through the one mapping in
// @kubelab/proto (the `kubelab-status` trailer, else the gRPC code).

import * as grpc from '@grpc/grpc-js';
import { StatusError, internalError } from '@kubelab/api';
import { grpcToStatus } from '@kubelab/proto';

function isServiceError(e: unknown): e is grpc.ServiceError {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'number' && 'metadata' in e;
}

/** The StatusError a failed call stands for; the gRPC error stays as its cause. */
export function toStatusError(err: unknown): StatusError {
  if (StatusError.isInstance(err)) return err;
  if (isServiceError(err)) return grpcToStatus(err);
  return internalError(err);
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
