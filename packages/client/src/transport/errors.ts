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

/** Most retries of a request the apiserver answered 429 with Retry-After (client-go's rest.Request maxRetries). */
export const MAX_RETRY_AFTER_ATTEMPTS = 10;

/**
 * The seconds to wait before sending the request again, when the apiserver
 * refused it unprocessed with a 429 and a Retry-After (API Priority and
 * Fairness' TooManyRequests; client-go retries those transparently, writes
 * included, as nothing was done); undefined for any other failure.
 */
export function retryAfterSeconds(err: unknown): number | undefined {
  if (!StatusError.isInstance(err) || err.code !== 429) return undefined;
  const s = err.status.details?.retryAfterSeconds;
  return typeof s === 'number' && s > 0 ? s : undefined;
}
