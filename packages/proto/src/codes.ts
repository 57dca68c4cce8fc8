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

/** Go's words for the dial errors grpc-js reports by their errno. */
const DIAL_ERRNO: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  ECONNREFUSED: 'connection refused',
  EACCES: 'permission denied',
};

/**
 * A connection grpc-js could not make (`No connection established. Last
 * error: Error: connect ENOENT /run/containerd/containerd.sock. …`), in
 * grpc-go's words: `connection error: desc = "transport: Error while
 * dialing: dial unix /run/containerd/containerd.sock: connect: no such file
 * or directory"` — what the kubelet and crictl print for a runtime that is
 * not there. `address` names the target instead of the dialled one (crictl
 * shows the endpoint as given). Undefined for any other text.
 */
export function goDialError(details: string, address?: string): string | undefined {
  const m = /Last error: (?:Error: )?connect (E[A-Z]+) (\S+?)\.?(?:\s|$)/.exec(details);
  const errno = m && DIAL_ERRNO[m[1]!];
  if (!m || !errno) return undefined;
  const target = address ?? m[2]!;
  return `connection error: desc = "transport: Error while dialing: dial ${target.startsWith('/') ? 'unix' : 'tcp'} ${target}: connect: ${errno}"`;
}
