// Contexts handed over explicitly, as services on the sync context manager
// (no AsyncLocalStorage) do it: the CLIENT span's parent given in the gRPC
// call options, the SERVER span's context found from the call after an
// await, a CONSUMER span continuing a NATS message's headers. This file runs
// the sync manager only (vitest isolates files), so nothing here can lean on
// an active context surviving an await.

import * as grpc from '@grpc/grpc-js';
import { headers, type MsgHdrs } from '@nats-io/transport-node';
import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { installedContextPropagation } from './context.js';
import { grpcClientInterceptors, serverContextOf, traceServerHandlers, type TracedCallOptions } from './grpc.js';
import { natsProcess } from './nats.js';
import { setupTracing } from './setup.js';
import { setupTestTracing, summarizeSpan } from './testing.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';
const sampled = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE, spanId: SPAN, traceFlags: TraceFlags.SAMPLED, isRemote: true });

const json = { serialize: (v: unknown) => Buffer.from(JSON.stringify(v)), deserialize: (b: Buffer) => JSON.parse(b.toString()) as unknown };
const service: grpc.ServiceDefinition = {
  StartContainer: {
    path: '/runtime.v1.RuntimeService/StartContainer',
    requestStream: false,
    responseStream: false,
    requestSerialize: json.serialize,
    requestDeserialize: json.deserialize,
    responseSerialize: json.serialize,
    responseDeserialize: json.deserialize,
  },
};
const Client = grpc.makeGenericClientConstructor(service, 'RuntimeService');
type Unary = (req: unknown, md: grpc.Metadata, opts: TracedCallOptions, cb: (err: grpc.ServiceError | null, res?: unknown) => void) => void;

describe('explicit contexts under the sync context manager', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it("a call given traceContext in its options is that context's child; the server finds its span after an await", async () => {
    const kubelet = setupTestTracing('kubelet', { samplingRatePerMillion: 0, contextPropagation: 'sync' });
    const containerd = setupTestTracing('containerd', { samplingRatePerMillion: 0, contextPropagation: 'sync' });
    expect(installedContextPropagation()).toBe('sync');
    const seen: { afterAwait?: string; found?: string }[] = [];
    const impl = {
      StartContainer: (call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => {
        void (async () => {
          await null;
          seen.push({ afterAwait: trace.getActiveSpan()?.spanContext().spanId, found: trace.getSpan(serverContextOf(call)!)?.spanContext().spanId });
          cb(null, {});
        })();
      },
    };
    const server = new grpc.Server();
    server.addService(service, traceServerHandlers(containerd.tracing, service, impl));
    const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
    const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { interceptors: grpcClientInterceptors(kubelet.tracing) });
    cleanup = async () => {
      client.close();
      await new Promise<void>((r) => server.tryShutdown(() => r()));
    };
    const call = (opts: TracedCallOptions) =>
      new Promise((resolve, reject) =>
        (client as unknown as Record<string, Unary>).StartContainer!({ containerId: 'c1' }, new grpc.Metadata(), opts, (err, res) => (err ? reject(err) : resolve(res))),
      );

    // Nothing active (a sync's CRI call after its first await): the option is the parent.
    await null;
    expect(context.active()).toBe(ROOT_CONTEXT);
    await call({ traceContext: sampled });
    // The option wins over whatever happens to be active.
    const other = trace.setSpanContext(ROOT_CONTEXT, { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.SAMPLED });
    await context.with(other, () => call({ traceContext: sampled }));
    // Without the option: the active context at the call, as before (none here: an unsampled root).
    await call({});

    const client1 = kubelet.spans().map(summarizeSpan);
    const server1 = containerd.spans().map(summarizeSpan);
    expect(client1.map((s) => [s.name, s.kind, s.traceId, s.parentSpanId])).toEqual([
      ['runtime.v1.RuntimeService/StartContainer', 'CLIENT', TRACE, SPAN],
      ['runtime.v1.RuntimeService/StartContainer', 'CLIENT', TRACE, SPAN],
    ]);
    expect(server1.map((s) => [s.kind, s.traceId, s.parentSpanId])).toEqual([
      ['SERVER', TRACE, client1[0]!.spanId],
      ['SERVER', TRACE, client1[1]!.spanId],
    ]);
    // After the handler's first await nothing is active, but the call still leads to its span.
    expect(seen.slice(0, 2)).toEqual([
      { afterAwait: undefined, found: server1[0]!.spanId },
      { afterAwait: undefined, found: server1[1]!.spanId },
    ]);
  });

  describe('natsProcess', () => {
    const subject = '$KV.kubelab./registry/pods/default/web';
    const withTraceparent = (tp: string): MsgHdrs => {
      const h = headers();
      h.set('KV-Operation', 'PUT');
      h.set('traceparent', tp);
      return h;
    };

    it("runs the work in a CONSUMER span, child of the publisher's context, named after the subscription pattern", () => {
      const t = setupTestTracing('apiserver', { samplingRatePerMillion: 0, contextPropagation: 'sync' });
      let active: string | undefined;
      const out = natsProcess(
        t.tracing,
        subject,
        () => withTraceparent(`00-${TRACE}-${SPAN}-01`),
        () => {
          active = trace.getActiveSpan()?.spanContext().spanId;
          return 7;
        },
        { template: '$KV.kubelab.>', bodySize: 12, attributes: () => ({ 'kv.revision': 7 }) },
      );
      expect(out).toBe(7);
      const [span] = t.spans();
      expect(summarizeSpan(span!)).toEqual({ name: 'process $KV.kubelab.>', kind: 'CONSUMER', service: 'apiserver', traceId: TRACE, spanId: active, parentSpanId: SPAN, status: 'UNSET' });
      expect(span!.attributes).toEqual({
        'messaging.system': 'nats',
        'messaging.destination.name': subject,
        'messaging.destination.template': '$KV.kubelab.>',
        'messaging.operation.name': 'process',
        'messaging.operation.type': 'process',
        'messaging.message.body.size': 12,
        'kv.revision': 7,
      });
    });

    it('untraced messages (no or an invalid traceparent) run bare; an unsampled one records nothing', () => {
      const t = setupTestTracing('apiserver', { samplingRatePerMillion: 1_000_000, contextPropagation: 'sync' });
      const bare = headers();
      bare.set('KV-Operation', 'PUT');
      expect(
        natsProcess(
          t.tracing,
          subject,
          () => undefined,
          () => 'a',
        ),
      ).toBe('a');
      expect(
        natsProcess(
          t.tracing,
          subject,
          () => bare,
          () => 'b',
        ),
      ).toBe('b');
      expect(
        natsProcess(
          t.tracing,
          subject,
          () => withTraceparent('00-nonsense'),
          () => 'c',
        ),
      ).toBe('c');
      expect(
        natsProcess(
          t.tracing,
          subject,
          () => withTraceparent(`00-${TRACE}-${SPAN}-00`),
          () => 'd',
        ),
      ).toBe('d');
      expect(t.spans()).toEqual([]);
    });

    it('off: the headers are never looked at', () => {
      const off = setupTracing({ serviceName: 'apiserver', env: {} });
      let parsed = 0;
      expect(
        natsProcess(
          off,
          subject,
          () => (parsed++, withTraceparent(`00-${TRACE}-${SPAN}-01`)),
          () => 'x',
        ),
      ).toBe('x');
      expect(parsed).toBe(0);
    });

    it('a throw ends the span with the exception and propagates', () => {
      const t = setupTestTracing('apiserver', { contextPropagation: 'sync' });
      expect(() =>
        natsProcess(
          t.tracing,
          subject,
          () => withTraceparent(`00-${TRACE}-${SPAN}-01`),
          () => {
            throw new Error('undecodable');
          },
        ),
      ).toThrow('undecodable');
      expect(t.spans().map((s) => [s.name, s.events.map((e) => e.attributes?.['exception.message'])])).toEqual([[`process ${subject}`, ['undecodable']]]);
    });
  });
});
