// The gRPC prober (upstream pkg/probe/grpc): dial host:port within the
// probe's timeout (blocking, like grpc.WithBlock), call
// grpc.health.v1.Health/Check with the probe's service name, and turn every
// outcome into Success/Failure with upstream's output texts. Any error is a
// failure (as the grpc_health_probe tool), never an Unknown result.

import * as grpc from '@grpc/grpc-js';
import { HEALTH_CHECK_PATH, decodeHealthResponse, encodeHealthRequest, grpcCodeName } from '@kubelab/proto';
import type { ProbeOutcome } from './outcome.js';
import { joinHostPort } from '@kubelab/api';

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
