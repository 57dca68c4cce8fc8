// One record per CRI call, as the tracing viewers consume it: method, node,
// the pod and container it concerns, a request summary (never credentials),
// duration, gRPC status and the W3C trace context continued from the caller.
// Published on NATS (shape and subject: @kubelab/proto's cri-record); publishing never fails a call.
// A record is exported telemetry, like a span on its way to the collector: its
// publish gets no PRODUCER span and no headers (OTel suppresses tracing of its
// own export path); the record itself carries the call's trace and span ids.

import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { natsAuthOptions, type NatsClientTls, type NatsIdentity } from '@kubelab/nats';
import type { Logger } from '@kubelab/component-base';
import { criSubject, encodeCriCallRecord, type CriCallRecord } from '@kubelab/proto';

export interface TraceContext {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The trace and span ids of a valid W3C `traceparent`, else undefined. */
export function parseTraceparent(traceparent: string | undefined): { traceId: string; spanId: string } | undefined {
  const m = traceparent ? TRACEPARENT.exec(traceparent.trim().toLowerCase()) : null;
  if (!m || m[2] === '0'.repeat(32) || m[3] === '0'.repeat(16)) return undefined;
  return { traceId: m[2]!, spanId: m[3]! };
}

/** Random bytes drawn from a pool refilled 4 KiB at a time: ids for every CRI call without a crypto call each. */
const idPool = { buf: Buffer.alloc(0), at: 0 };
function randomHex(bytes: number): string {
  if (idPool.at + bytes > idPool.buf.length) {
    idPool.buf = randomBytes(4096);
    idPool.at = 0;
  }
  idPool.at += bytes;
  return idPool.buf.toString('hex', idPool.at - bytes, idPool.at);
}

/** Tracing off: this call's ids made up here, a child of the caller's `traceparent` or the root of a new trace. */
export function continueTrace(traceparent: string | undefined): TraceContext {
  const spanId = randomHex(8);
  const parent = parseTraceparent(traceparent);
  if (parent) return { traceId: parent.traceId, spanId, parentSpanId: parent.spanId };
  return { traceId: randomHex(16), spanId };
}

/**
 * Tracing on: the ids of the call's exported SERVER span, so a `kubelab trace`
 * line and its span in Jaeger carry the same ids; the parent is the caller's
 * span when the server span continued it.
 */
export function spanTrace(span: { traceId: string; spanId: string }, traceparent: string | undefined): TraceContext {
  const parent = parseTraceparent(traceparent);
  return { traceId: span.traceId, spanId: span.spanId, ...(parent && parent.traceId === span.traceId ? { parentSpanId: parent.spanId } : {}) };
}

export interface RecordSink {
  publish(rec: CriCallRecord): void;
  close(): Promise<void>;
}

/** Without NATS: records go to the debug log only. */
export function logSink(log: Logger): RecordSink {
  return {
    publish: (rec) => log.debug('cri call', { ...rec }),
    close: async () => {},
  };
}

/** Publishes to NATS, reconnecting forever; records made while disconnected are dropped after the client's buffer. */
export async function natsSink(url: string, log: Logger, identity: NatsIdentity, tls?: NatsClientTls): Promise<RecordSink> {
  let nc: NatsConnection | undefined;
  let closed = false;
  const connecting = connect({ servers: url, name: 'kubelab-containerd', maxReconnectAttempts: -1, waitOnFirstConnect: true, reconnectTimeWait: 500, ...natsAuthOptions(identity, tls) })
    .then((c) => {
      if (closed) {
        void c.close();
        return;
      }
      nc = c;
      log.info('publishing CRI call records to NATS', { url });
    })
    .catch((err: unknown) => log.warn('cannot connect to NATS; CRI records are only logged', { url, err: (err as Error).message }));
  // Records of one event-loop turn go out together, so the client writes them
  // to its socket once rather than once per CRI call.
  type Item = { subject: string; data: string };
  let batch: Item[] = [];
  const flush = () => {
    const items = batch;
    batch = [];
    const conn = nc;
    if (!conn || conn.isClosed()) return;
    for (const it of items) {
      try {
        conn.publish(it.subject, it.data);
      } catch (err) {
        log.debug('dropping CRI record', { err: (err as Error).message });
      }
    }
  };
  const enqueue = (item: Item) => {
    if (batch.push(item) === 1) setImmediate(flush);
  };
  return {
    publish: (rec) => {
      log.debug('cri call', { ...rec });
      if (!nc || nc.isClosed()) return;
      enqueue({ subject: criSubject(rec.node, rec.method), data: encodeCriCallRecord(rec) });
    },
    close: async () => {
      closed = true;
      flush();
      if (nc && !nc.isClosed()) {
        await nc.drain().catch(() => {});
      } else {
        void connecting;
      }
    },
  };
}
