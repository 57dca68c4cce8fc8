import { createServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goSeconds, grpcProbe } from './grpc.js';

// A gRPC health server speaking the wire protocol over h2c (grpc-js's own server
// drops zero-length messages, which is what Check for service "" sends):
// SERVING for "", NOT_SERVING for "db", NotFound otherwise.
const statusCode: Record<string, number> = { '': 1, db: 2 };
let server: Http2Server;
let port: number;
let bare: grpc.Server;
let barePort: number;

beforeAll(async () => {
  server = createServer();
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (d: Buffer) => chunks.push(d));
    stream.on('end', () => {
      const body = Buffer.concat(chunks);
      const service = body.length > 7 ? body.subarray(7).toString() : '';
      const n = headers[':path'] === '/grpc.health.v1.Health/Check' ? statusCode[service] : undefined;
      if (n === undefined) {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '5', 'grpc-message': 'unknown service' }, { endStream: true });
        return;
      }
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.once('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(Buffer.from([0, 0, 0, 0, 2, 0x08, n]));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  // A gRPC server without the health service.
  bare = new grpc.Server();
  barePort = await new Promise<number>((r, j) => bare.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? j(e) : r(p))));
});
afterAll(() => {
  server?.close();
  bare?.forceShutdown();
});

const probe = (p: number, service = '', timeoutMs = 1000) => grpcProbe({ host: '127.0.0.1', port: p, service, timeoutMs, displayAddr: `10.244.1.5:${p}`, displayTimeout: '1s' });

describe('gRPC prober', () => {
  it('SERVING is success', async () => {
    expect(await probe(port)).toEqual({ result: 'Success', output: 'service healthy' });
  });

  it('NOT_SERVING is a failure naming the status', async () => {
    expect(await probe(port, 'db')).toEqual({ result: 'Failure', output: 'service unhealthy (responded with "NOT_SERVING")' });
  });

  it('an unknown service is a failed health rpc', async () => {
    expect(await probe(port, 'cache')).toEqual({ result: 'Failure', output: 'error: health rpc probe failed: rpc error: code = NotFound desc = unknown service' });
  });

  it('a server without the health service does not implement the protocol', async () => {
    const r = await probe(barePort);
    expect(r.result).toBe('Failure');
    expect((r as { output: string }).output).toMatch(/^error: this server does not implement the grpc health protocol \(grpc\.health\.v1\.Health\): /);
  });

  it('nobody listening: no connection within the timeout', async () => {
    const started = Date.now();
    expect(await probe(1, '', 300)).toEqual({ result: 'Failure', output: 'timeout: failed to connect service "10.244.1.5:1" within 1s: context deadline exceeded' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('prints durations as Go does', () => {
    expect([goSeconds(1), goSeconds(59), goSeconds(90), goSeconds(3600)]).toEqual(['1s', '59s', '1m30s', '1h0m0s']);
  });
});
