// A stand-in OTLP/gRPC trace collector for the tracing benchmark, run as its
// own process (as Jaeger would be) so its CPU is not charged to the bench
// client that times the pods. It answers every Export at once and keeps
// nothing: Export calls and bytes are counted, and with SPAN_STATS=1 spans are
// counted by service and name (a minimal protobuf walk; off by default so the
// sink stays as cheap as a collector that only queues).
//
// Protocol with the parent (fork IPC): sends { port } once listening; answers
// 'stats' with { requests, bytes, spans, byName }.

import * as grpc from '@grpc/grpc-js';

const SPAN_STATS = process.env.SPAN_STATS === '1';

/** Protobuf wire walk: calls fn(fieldNumber, value) for each length-delimited field of buf. */
function fields(buf, fn) {
  let i = 0;
  const varint = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const b = buf[i++];
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
      shift += 7;
    }
  };
  while (i < buf.length) {
    const key = varint();
    const wire = key & 7;
    const field = Math.floor(key / 8);
    if (wire === 0) varint();
    else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else if (wire === 2) {
      const len = varint();
      fn(field, buf.subarray(i, i + len));
      i += len;
    } else return;
  }
}

const stats = { requests: 0, bytes: 0, spans: 0, byName: {} };

/** ExportTraceServiceRequest{1: ResourceSpans{1: Resource{1: KeyValue}, 2: ScopeSpans{2: Span{5: name}}}}. */
function countSpans(req) {
  fields(req, (f, rs) => {
    if (f !== 1) return;
    let service = '?';
    const names = [];
    fields(rs, (f2, v) => {
      if (f2 === 1)
        fields(v, (f3, kv) => {
          if (f3 !== 1) return;
          let key = '';
          let val = '';
          fields(kv, (f4, x) => {
            if (f4 === 1) key = x.toString();
            else if (f4 === 2) fields(x, (f5, s) => f5 === 1 && (val = s.toString()));
          });
          if (key === 'service.name') service = val;
        });
      else if (f2 === 2) fields(v, (f3, span) => f3 === 2 && fields(span, (f4, n) => f4 === 5 && names.push(n.toString())));
    });
    for (const n of names) {
      const k = `${service} ${n}`;
      stats.byName[k] = (stats.byName[k] ?? 0) + 1;
      stats.spans++;
    }
  });
}

const raw = (b) => b;
const server = new grpc.Server();
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
    Export: (call, cb) => {
      stats.requests++;
      stats.bytes += call.request.length;
      if (SPAN_STATS) countSpans(call.request);
      cb(null, Buffer.alloc(0));
    },
  },
);
server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    console.error(`otlp-sink: listen: ${err.message}`);
    process.exit(1);
  }
  process.send({ port });
});
process.on('message', (m) => {
  if (m === 'stats') process.send({ stats });
  else if (m === 'stop') server.tryShutdown(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
