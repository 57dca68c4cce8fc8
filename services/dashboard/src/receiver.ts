// The OTLP receivers: OTLP/HTTP (`POST /v1/traces` on the dashboard's HTTP
// port, protobuf or JSON, gzip allowed) and OTLP/gRPC
// (`opentelemetry.proto.collector.trace.v1.TraceService/Export` on
// --otlp-grpc-port, what the components' exporters speak), both into the
// span store; and the page's reads of it (`GET /api/traces`,
// `GET /api/traces/<trace id>`).
//
// Errors as the OTLP specification has them: a body that cannot be read →
// 400 with a google.rpc.Status body (protobuf or JSON, as the request was);
// a body over the limit → 413; a content type other than protobuf or JSON →
// 415; invalid single spans → 200 with partial_success.

import * as grpc from '@grpc/grpc-js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzip } from 'node:zlib';
import { decodeOtlpJson, decodeOtlpProtobuf, encodeExportResponse, encodeRpcStatus, exportResponseJson, OtlpError, type DecodedExport } from './otlp.js';
import type { SpanStore } from './spans.js';
import { joinHostPort } from '@kubelab/api';

/** Largest OTLP body read (after gunzip too); the exporters' batches are far smaller. */
export const MAX_OTLP_BODY = 4 * 1024 * 1024;

const GRPC_INVALID_ARGUMENT = 3;
const GRPC_RESOURCE_EXHAUSTED = 8;

type Encoding = 'protobuf' | 'json';

function send(res: ServerResponse, code: number, enc: Encoding, body: Uint8Array | string): void {
  res.writeHead(code, { 'content-type': enc === 'json' ? 'application/json' : 'application/x-protobuf', 'cache-control': 'no-store' });
  res.end(body);
}

function sendStatus(res: ServerResponse, httpCode: number, enc: Encoding, rpcCode: number, message: string): void {
  if (httpCode === 413) res.setHeader('connection', 'close');
  send(res, httpCode, enc, enc === 'json' ? JSON.stringify({ code: rpcCode, message }) : encodeRpcStatus(rpcCode, message));
}

class TooLarge extends Error {}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new TooLarge(`the body is ${declared} bytes, more than ${limit}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > limit) throw new TooLarge(`the body is more than ${limit} bytes`);
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

function gunzipped(body: Buffer, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    gunzip(body, { maxOutputLength: limit }, (err, out) => {
      if (!err) return resolve(out);
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) reject(new TooLarge(`the body is more than ${limit} bytes once gunzipped`));
      else reject(new OtlpError(`cannot gunzip the body: ${err.message}`));
    }),
  );
}

export interface OtlpReceiverOptions {
  store: SpanStore;
  maxBody?: number;
  /** Hears each accepted export (logs, counters). */
  onExport?: (d: DecodedExport, transport: 'http' | 'grpc') => void;
  /** Sends each protobuf export on to another collector (fan-out). */
  forwarder?: OtlpForwarder;
}

/** POST /v1/traces. */
export async function handleOtlpHttp(o: OtlpReceiverOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const enc: Encoding = type === 'application/json' ? 'json' : 'protobuf';
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    return sendStatus(res, 405, enc, GRPC_INVALID_ARGUMENT, `${req.method} is not allowed on /v1/traces: POST an ExportTraceServiceRequest`);
  }
  if (type !== 'application/json' && type !== 'application/x-protobuf') {
    req.resume();
    return sendStatus(res, 415, 'json', GRPC_INVALID_ARGUMENT, `unsupported content type ${JSON.stringify(type)}: send application/x-protobuf or application/json`);
  }
  const limit = o.maxBody ?? MAX_OTLP_BODY;
  const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
  try {
    if (encoding !== 'identity' && encoding !== 'gzip') {
      req.resume();
      return sendStatus(res, 415, enc, GRPC_INVALID_ARGUMENT, `unsupported content encoding ${JSON.stringify(encoding)}: send gzip or none`);
    }
    let body = await readBody(req, limit);
    if (encoding === 'gzip') body = await gunzipped(body, limit);
    const d = enc === 'json' ? decodeOtlpJson(body.toString('utf8')) : decodeOtlpProtobuf(body);
    if (enc === 'protobuf') o.forwarder?.forward(body);
    o.store.add(d.spans);
    o.onExport?.(d, 'http');
    return send(res, 200, enc, enc === 'json' ? exportResponseJson(d) : encodeExportResponse(d));
  } catch (e) {
    if (e instanceof TooLarge) {
      req.resume();
      return sendStatus(res, 413, enc, GRPC_RESOURCE_EXHAUSTED, e.message);
    }
    if (e instanceof OtlpError) return sendStatus(res, 400, enc, GRPC_INVALID_ARGUMENT, e.message);
    return sendStatus(res, 500, enc, 13, (e as Error).message);
  }
}

/** GET /api/traces (`?ids=a,b`: those of the ids held) and /api/traces/<id>; false when the path is neither. */
export function handleTracesApi(store: SpanStore, path: string, res: ServerResponse, query?: URLSearchParams): boolean {
  const json = (code: number, body: unknown) => {
    res.writeHead(code, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body) + '\n');
  };
  if (path === '/api/traces') {
    const ids = query?.get('ids');
    if (ids !== null && ids !== undefined) {
      const items = ids
        .split(',')
        .slice(0, 100)
        .map((id) => store.summary(id.trim().toLowerCase()))
        .filter((x) => x !== undefined);
      json(200, { items, ...store.size });
    } else json(200, { items: store.list(200), ...store.size });
    return true;
  }
  const m = /^\/api\/traces\/([^/]+)$/.exec(path);
  if (!m) return false;
  const id = m[1]!.toLowerCase();
  const spans = /^[0-9a-f]{32}$/.test(id) ? store.trace(id) : undefined;
  if (!spans) {
    json(404, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `trace ${JSON.stringify(m[1])} not found`, reason: 'NotFound', code: 404 });
    return true;
  }
  json(200, { summary: store.summary(id), spans });
  return true;
}

export interface RunningOtlpGrpc {
  port: number;
  close(): Promise<void>;
}

const raw = (b: Buffer) => b;

/** The OTLP/gRPC receiver (insecure, as upstream's exporters dial a collector). */
export async function startOtlpGrpc(o: OtlpReceiverOptions & { bindAddress: string; port: number }): Promise<RunningOtlpGrpc> {
  const limit = o.maxBody ?? MAX_OTLP_BODY;
  const server = new grpc.Server({ 'grpc.max_receive_message_length': limit });
  server.addService(
    {
      Export: {
        path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
        requestStream: false,
        responseStream: false,
        requestSerialize: raw,
        requestDeserialize: raw,
        responseSerialize: raw,
        responseDeserialize: raw,
      },
    },
    {
      Export: (call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => {
        try {
          const d = decodeOtlpProtobuf(call.request);
          o.forwarder?.forward(call.request);
          o.store.add(d.spans);
          o.onExport?.(d, 'grpc');
          cb(null, Buffer.from(encodeExportResponse(d)));
        } catch (e) {
          cb({ code: e instanceof OtlpError ? grpc.status.INVALID_ARGUMENT : grpc.status.INTERNAL, details: (e as Error).message });
        }
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(joinHostPort(o.bindAddress, o.port), grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 2000);
        server.tryShutdown(() => {
          clearTimeout(t);
          resolve();
        });
      }),
  };
}

/**
 * Fan-out: each protobuf export the dashboard receives (OTLP/gRPC, or
 * OTLP/HTTP protobuf) is sent on as it came to another OTLP/gRPC collector
 * (`--otlp-forward-endpoint`, e.g. Jaeger), so one endpoint in the components
 * feeds both. Best effort, as an exporter is: at most `maxInFlight` exports
 * on their way, the rest dropped and counted; a failure is told once per
 * outage.
 */
export class OtlpForwarder {
  private readonly client: grpc.Client;
  private inFlight = 0;
  private failing = false;
  dropped = 0;
  sent = 0;

  constructor(
    readonly endpoint: string,
    private readonly note: (message: string) => void = () => {},
    private readonly maxInFlight = 8,
  ) {
    const target = endpoint.replace(/^https?:\/\//, '');
    this.client = new grpc.Client(target, grpc.credentials.createInsecure());
  }

  forward(body: Uint8Array): void {
    if (this.inFlight >= this.maxInFlight) {
      this.dropped++;
      return;
    }
    this.inFlight++;
    this.client.makeUnaryRequest(
      '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
      raw,
      raw,
      Buffer.from(body.buffer, body.byteOffset, body.byteLength),
      { deadline: Date.now() + 10_000 },
      (err) => {
        this.inFlight--;
        if (err) {
          this.dropped++;
          if (!this.failing) this.note(`forwarding traces to ${this.endpoint} failed: ${err.details || err.message}`);
          this.failing = true;
        } else {
          this.sent++;
          if (this.failing) this.note(`forwarding traces to ${this.endpoint} works again`);
          this.failing = false;
        }
      },
    );
  }

  close(): void {
    this.client.close();
  }
}
