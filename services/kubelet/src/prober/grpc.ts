// The gRPC prober (upstream pkg/probe/grpc): dial host:port within the
// probe's timeout (blocking, like grpc.WithBlock), call
// grpc.health.v1.Health/Check with the probe's service name, and turn every
// outcome into Success/Failure with upstream's output texts. Any error is a
// failure (as the grpc_health_probe tool), never an Unknown result.

import * as grpc from '@grpc/grpc-js';
import type { ProbeOutcome } from './prober.js';

export const HEALTH_CHECK_PATH = '/grpc.health.v1.Health/Check';
const SERVING_STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];

/** HealthCheckRequest { string service = 1 } on the wire. */
export function encodeHealthRequest(service: string): Buffer {
  if (!service) return Buffer.alloc(0);
  const s = Buffer.from(service, 'utf8');
  const len: number[] = [];
  let n = s.length;
  while (n > 0x7f) {
    len.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  len.push(n);
  return Buffer.concat([Buffer.from([0x0a, ...len]), s]);
}

/** HealthCheckResponse's status name (`UNKNOWN` when absent, the number for values this proto does not know). */
export function decodeHealthResponse(buf: Buffer): string {
  let status = 0;
  let i = 0;
  const varint = (): number => {
    let v = 0;
    let shift = 0;
    for (;;) {
      if (i >= buf.length || shift > 28) throw new Error('truncated varint');
      const b = buf[i++]!;
      v |= (b & 0x7f) << shift;
      if (!(b & 0x80)) return v >>> 0;
      shift += 7;
    }
  };
  while (i < buf.length) {
    const key = varint();
    const wire = key & 7;
    if (wire === 0) {
      const v = varint();
      if (key >>> 3 === 1) status = v;
    } else if (wire === 2) i += varint();
    else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
  return SERVING_STATUS[status] ?? String(status);
}

/** Go's name for a gRPC code (codes.Code.String()). */
export function grpcCodeName(code: number): string {
  const names = ['OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied', 'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated'];
  return names[code] ?? `Code(${code})`;
}

/** net.JoinHostPort. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Go's time.Duration text for whole seconds (`1s`, `1m30s`). */
export function goSeconds(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h) return `${h}h${m}m${s}s`;
  if (m) return `${m}m${s}s`;
  return `${s}s`;
}

export interface GrpcProbeTarget {
  /** Where to connect (the pod IP, or where the runtime really serves it). */
  host: string;
  port: number;
  service: string;
  /** Wall-clock budget for dial and call together. */
  timeoutMs: number;
  /** The address and timeout as the probe's output names them (pod IP, spec timeout). */
  displayAddr: string;
  displayTimeout: string;
}

/** One gRPC health probe (upstream grpcProber.Probe). */
export function grpcProbe(t: GrpcProbeTarget): Promise<ProbeOutcome> {
  const deadline = Date.now() + t.timeoutMs;
  const client = new grpc.Client(joinHostPort(t.host, t.port), grpc.credentials.createInsecure(), {
    'grpc.primary_user_agent': 'kube-probe/1.32',
    'grpc.initial_reconnect_backoff_ms': 100,
    'grpc.max_reconnect_backoff_ms': 200,
  });
  return new Promise<ProbeOutcome>((resolve) => {
    client.waitForReady(deadline, (err) => {
      if (err) {
        resolve({ result: 'Failure', output: `timeout: failed to connect service ${JSON.stringify(t.displayAddr)} within ${t.displayTimeout}: context deadline exceeded` });
        return;
      }
      client.makeUnaryRequest(
        HEALTH_CHECK_PATH,
        (req: { service: string }) => encodeHealthRequest(req.service),
        (buf: Buffer) => decodeHealthResponse(buf),
        { service: t.service },
        new grpc.Metadata(),
        { deadline },
        (callErr, status) => {
          if (callErr) {
            const e = callErr as grpc.ServiceError;
            if (e.code === grpc.status.UNIMPLEMENTED) {
              resolve({ result: 'Failure', output: `error: this server does not implement the grpc health protocol (grpc.health.v1.Health): ${e.details}` });
            } else if (e.code === grpc.status.DEADLINE_EXCEEDED) {
              resolve({ result: 'Failure', output: `timeout: health rpc did not complete within ${t.displayTimeout}` });
            } else {
              resolve({ result: 'Failure', output: `error: health rpc probe failed: rpc error: code = ${grpcCodeName(e.code)} desc = ${e.details}` });
            }
            return;
          }
          if (status !== 'SERVING') resolve({ result: 'Failure', output: `service unhealthy (responded with ${JSON.stringify(status)})` });
          else resolve({ result: 'Success', output: 'service healthy' });
        },
      );
    });
  }).finally(() => client.close());
}
