// A minimal gRPC server for the standard health protocol
// (grpc.health.v1.Health/Check, the service kubelet gRPC probes call), spoken
// over h2c streams: length-prefixed protobuf messages, status in trailers.
// Simulated programs (grpc-health, etcd) serve it on a container port.

import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { HEALTH_CHECK_PATH, HEALTH_SERVICE, decodeHealthRequest, encodeHealthResponse, type ServingStatus } from '@kubelab/proto/grpc-health';
import type { H2cHandler } from './network.js';

// gRPC status codes used here.
const NOT_FOUND = 5;
const UNIMPLEMENTED = 12;
const INVALID_ARGUMENT = 3;

/** One length-prefixed gRPC message (uncompressed). */
export function frame(msg: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(msg.length, 1);
  return Buffer.concat([head, msg]);
}

function trailersOnly(stream: ServerHttp2Stream, code: number, message: string): void {
  stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': String(code), 'grpc-message': encodeURIComponent(message) }, { endStream: true });
}

/**
 * Serves Health/Check: `statusOf(service)` answers a known service's status,
 * or undefined for a service the server does not know (NotFound "unknown
 * service", as grpc-go's health server answers).
 */
export function healthServer(statusOf: (service: string) => Promise<ServingStatus | undefined>, onRequest?: (service: string, status: string) => void): H2cHandler {
  return {
    h2c(stream: ServerHttp2Stream, headers: IncomingHttpHeaders) {
      stream.on('error', () => {});
      const path = String(headers[':path'] ?? '');
      if (path !== HEALTH_CHECK_PATH) {
        const svc = path.split('/')[1] ?? '';
        const method = path.split('/')[2] ?? '';
        trailersOnly(stream, UNIMPLEMENTED, svc === HEALTH_SERVICE ? `unknown method ${method} for service ${svc}` : `unknown service ${svc}`);
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (d: Buffer) => chunks.push(d));
      stream.on('end', () => {
        void (async () => {
          const body = Buffer.concat(chunks);
          let service: string;
          try {
            if (body.length < 5 || body[0] !== 0) throw new Error('expected one uncompressed message');
            service = decodeHealthRequest(body.subarray(5, 5 + body.readUInt32BE(1))).service;
          } catch (err) {
            trailersOnly(stream, INVALID_ARGUMENT, `grpc: error unmarshalling request: ${(err as Error).message}`);
            return;
          }
          const status = await statusOf(service);
          onRequest?.(service, status ?? 'unknown service');
          if (stream.destroyed) return;
          if (status === undefined) {
            trailersOnly(stream, NOT_FOUND, 'unknown service');
            return;
          }
          stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
          stream.once('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0', 'grpc-message': '' }));
          stream.end(frame(encodeHealthResponse(status)));
        })();
      });
    },
  };
}
