// NATS messages carry the W3C trace context in headers, so a publish and the
// processing of that message land in one trace (PRODUCER → CONSUMER spans,
// OTel messaging conventions). With tracing off no headers are added.

import { headers, type MsgHdrs } from '@nats-io/transport-node';
import { context as otelContext, SpanKind, type Context, type Span, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { propagator } from './propagation.js';
import type { Tracing } from './setup.js';

const hdrSetter: TextMapSetter<MsgHdrs> = { set: (h, k, v) => h.set(k, v) };
const hdrGetter: TextMapGetter<MsgHdrs> = {
  keys: (h) => h.keys(),
  get: (h, k) => (h.has(k) ? h.get(k) : undefined),
};

/** Headers with ctx's `traceparent` (merged into `h` when given); undefined when off and no headers were given. */
export function injectNatsHeaders(tracing: Tracing, h?: MsgHdrs, ctx: Context = otelContext.active()): MsgHdrs | undefined {
  if (!tracing.enabled) return h;
  const out = h ?? headers();
  propagator.inject(ctx, out, hdrSetter);
  return out;
}

/** The publisher's context from a message's headers (base when absent). */
export function contextFromNatsHeaders(h: MsgHdrs | undefined, base: Context = otelContext.active()): Context {
  return h ? propagator.extract(base, h, hdrGetter) : base;
}

function messagingAttributes(subject: string, op: 'publish' | 'process') {
  return { 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.operation.type': op };
}

/** Runs fn (which publishes to `subject` with the given headers) inside a PRODUCER span. */
export function natsPublishSpan<T>(tracing: Tracing, subject: string, fn: (h: MsgHdrs | undefined, span: Span) => Promise<T> | T, h?: MsgHdrs): Promise<T> {
  return tracing.withSpan(`publish ${subject}`, (span) => fn(injectNatsHeaders(tracing, h), span), { kind: SpanKind.PRODUCER, attributes: messagingAttributes(subject, 'publish') });
}

/** Runs fn for a received message inside a CONSUMER span continuing the publisher's trace. */
export function natsProcessSpan<T>(tracing: Tracing, msg: { subject: string; headers?: MsgHdrs | undefined }, fn: (span: Span) => Promise<T> | T): Promise<T> {
  if (!tracing.enabled) return tracing.withSpan('', fn);
  return tracing.withSpan(`process ${msg.subject}`, fn, {
    kind: SpanKind.CONSUMER,
    attributes: messagingAttributes(msg.subject, 'process'),
    parent: contextFromNatsHeaders(msg.headers, otelContext.active()),
  });
}
