// A minimal gRPC server for the standard health protocol
// (grpc.health.v1.Health/Check, the service kubelet gRPC probes call), spoken
// over h2c streams: length-prefixed protobuf messages, status in trailers.
// Simulated programs (grpc-health, etcd) serve it on a container port.

import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import type { H2cHandler } from './network.js';

/** grpc.health.v1.HealthCheckResponse.ServingStatus. */
export const SERVING_STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;
export type ServingStatus = (typeof SERVING_STATUS)[number];

const CHECK_PATH = '/grpc.health.v1.Health/Check';
const HEALTH_SERVICE = 'grpc.health.v1.Health';
// gRPC status codes used here.
const NOT_FOUND = 5;
const UNIMPLEMENTED = 12;
const INVALID_ARGUMENT = 3;

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

/** HealthCheckResponse { status = 1 } (proto3 leaves out the zero value). */
export function encodeHealthResponse(status: ServingStatus): Buffer {
  const n = SERVING_STATUS.indexOf(status);
  return Buffer.from(n > 0 ? [0x08, ...varint(n)] : []);
}

/** HealthCheckRequest { string service = 1 }; throws on malformed input. */
export function decodeHealthRequest(buf: Buffer): { service: string } {
  let service = '';
  let i = 0;
  const readVarint = (): number => {
    let shift = 0;
    let v = 0;
    for (;;) {
      if (i >= buf.length || shift > 28) throw new Error('truncated varint');
      const b = buf[i++]!;
      v |= (b & 0x7f) << shift;
      if (!(b & 0x80)) return v >>> 0;
      shift += 7;
    }
  };
  while (i < buf.length) {
    const key = readVarint();
    const field = key >>> 3;
    const wire = key & 7;
    if (wire === 0) readVarint();
    else if (wire === 2) {
      const len = readVarint();
      if (i + len > buf.length) throw new Error('truncated field');
      if (field === 1) service = buf.subarray(i, i + len).toString('utf8');
      i += len;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
  return { service };
}

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
      if (path !== CHECK_PATH) {
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
