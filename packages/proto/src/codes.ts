// gRPC status code names as upstream Go prints them (grpc-go codes.Code.String()):
// what `rpc error: code = ... desc = ...` and the kubelet's messages show.
// Note Go's "Canceled" where the wire enum (grpc-js `status`, google.rpc.Code) says CANCELLED.

const GO_NAMES: readonly string[] = [
  'OK',
  'Canceled',
  'Unknown',
  'InvalidArgument',
  'DeadlineExceeded',
  'NotFound',
  'AlreadyExists',
  'PermissionDenied',
  'ResourceExhausted',
  'FailedPrecondition',
  'Aborted',
  'OutOfRange',
  'Unimplemented',
  'Internal',
  'Unavailable',
  'DataLoss',
  'Unauthenticated',
];

/** Go's name for a gRPC code; a code outside the 17 reads `Code(n)`, as in Go. */
export function grpcCodeName(code: number): string {
  return GO_NAMES[code] ?? `Code(${code})`;
}
