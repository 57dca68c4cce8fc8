// Runtime errors carry the gRPC status code they map to, in one place, the way
// containerd's errdefs map ErrNotFound/ErrInvalidArgument/... onto codes.

import type { status as GrpcStatus } from '@grpc/grpc-js';

/**
 * The gRPC codes runtime errors carry (grpc-js's `status` values): spelled
 * here, so that a shim, which runs tasks and never speaks gRPC, does not load
 * grpc-js to start.
 */
export const status = {
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  FAILED_PRECONDITION: 9,
} as const satisfies Record<string, GrpcStatus>;

const MARK = Symbol.for('kubelab.containerd.RuntimeError');

export class RuntimeError extends Error {
  override name = 'RuntimeError';
  readonly [MARK] = true;
  constructor(
    readonly code: GrpcStatus,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  static isInstance(err: unknown): err is RuntimeError {
    return typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[MARK] === true;
  }
}

/** NOT_FOUND with containerd's wording for a missing sandbox or container. */
export function notFound(kind: 'sandbox' | 'container', id: string): RuntimeError {
  return new RuntimeError(status.NOT_FOUND, `an error occurred when try to find ${kind} "${id}": not found`);
}

/** INVALID_ARGUMENT naming the offending field by its proto (snake_case) path. */
export function invalid(field: string, detail: string): RuntimeError {
  return new RuntimeError(status.INVALID_ARGUMENT, `${field}: ${detail}`);
}

export function failedPrecondition(message: string): RuntimeError {
  return new RuntimeError(status.FAILED_PRECONDITION, message);
}

export function alreadyExists(message: string): RuntimeError {
  return new RuntimeError(status.ALREADY_EXISTS, message);
}

/** The gRPC status for any thrown value: RuntimeErrors keep theirs, the rest are UNKNOWN. */
export function toGrpcError(err: unknown): { code: GrpcStatus; details: string } {
  if (RuntimeError.isInstance(err)) return { code: err.code, details: err.message };
  return { code: status.UNKNOWN, details: err instanceof Error ? err.message : String(err) };
}
