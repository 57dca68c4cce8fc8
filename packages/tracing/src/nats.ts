// NATS messages carry the W3C trace context in headers, so a publish and the
// processing of that message land in one trace: a PRODUCER span per publish,
// a CONSUMER span per processed message continuing it (OTel messaging
// conventions: span name `{messaging.operation.name} {destination}`,
// `messaging.operation.type` send / process). With tracing off no span is
// made and no headers are added.

import { headers, type MsgHdrs } from '@nats-io/transport-node';
import { context as otelContext, ROOT_CONTEXT, SpanKind, trace, type Attributes, type Context, type Span, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { hasValidIds, injectSpanContext, propagator, TRACEPARENT } from './propagation.js';
import type { Tracing } from './setup.js';

const hdrSetter: TextMapSetter<MsgHdrs> = { set: (h, k, v) => h.set(k, v) };
// One lookup per header: MsgHdrs.get scans the keys and answers '' when absent (has + get scanned twice).
const hdrGetter: TextMapGetter<MsgHdrs> = {
  keys: (h) => h.keys(),
  get: (h, k) => h.get(k) || undefined,
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

/** NATS calls its send operation `publish`; the generic type is `send` (semconv ≥ 1.27; `publish` is the deprecated type). */
export function natsSpanName(op: 'publish' | 'process', subject: string): string {
  return `${op} ${subject}`;
}

export function messagingAttributes(subject: string, op: 'publish' | 'process', bodySize?: number, template?: string): Attributes {
  return {
    'messaging.system': 'nats',
    'messaging.destination.name': subject,
    ...(template !== undefined ? { 'messaging.destination.template': template } : {}),
    'messaging.operation.name': op,
    'messaging.operation.type': op === 'publish' ? 'send' : 'process',
    ...(bodySize !== undefined ? { 'messaging.message.body.size': bodySize } : {}),
  };
}

export interface NatsPublishOptions {
  /** The span the publish belongs to; default: the active context. */
  parent?: Context;
  /** Headers to add the trace context to. */
  headers?: MsgHdrs;
  /** Payload bytes, recorded as messaging.message.body.size. */
  bodySize?: number;
}

/**
 * Runs `publish` (synchronous, e.g. `nc.publish(subject, data, { headers })`)
 * in a PRODUCER span whose context travels in the headers it is given. Off, or
 * without a valid parent: `publish(opts.headers)` alone — no span, no headers.
 * The parent rule keeps a service's untraced background work (a relist) from
 * starting traces of its own.
 */
export function natsPublish<T>(tracing: Tracing, subject: string, publish: (h: MsgHdrs | undefined) => T, opts: NatsPublishOptions = {}): T {
  if (!tracing.enabled) return publish(opts.headers);
  const parent = opts.parent ?? otelContext.active();
  if (!hasValidIds(trace.getSpanContext(parent))) return publish(opts.headers);
  const span = tracing.tracer.startSpan(natsSpanName('publish', subject), { kind: SpanKind.PRODUCER }, parent);
  if (span.isRecording()) span.setAttributes(messagingAttributes(subject, 'publish', opts.bodySize));
  const h = opts.headers ?? headers();
  // The span's own context, as the propagator would write it (an invalid one: a suppressed parent).
  const sc = span.spanContext();
  if (hasValidIds(sc)) injectSpanContext(sc, h, hdrSetter);
  try {
    return publish(h);
  } catch (err) {
    if (span.isRecording()) span.recordException(err as Error);
    throw err;
  } finally {
    span.end();
  }
}

/** Runs fn (which publishes to `subject` with the given headers) inside a PRODUCER span that is active for fn. */
export function natsPublishSpan<T>(tracing: Tracing, subject: string, fn: (h: MsgHdrs | undefined, span: Span) => Promise<T> | T, h?: MsgHdrs): Promise<T> {
  return tracing.withSpan(natsSpanName('publish', subject), (span) => fn(injectNatsHeaders(tracing, h), span), { kind: SpanKind.PRODUCER, attributes: () => messagingAttributes(subject, 'publish') });
}

/** Runs fn for a received message inside a CONSUMER span continuing the publisher's trace (the span is active for fn). */
export function natsProcessSpan<T>(tracing: Tracing, msg: { subject: string; headers?: MsgHdrs | undefined; data?: Uint8Array }, fn: (span: Span) => Promise<T> | T): Promise<T> {
  if (!tracing.enabled) return tracing.withSpan('', fn);
  return tracing.withSpan(natsSpanName('process', msg.subject), fn, {
    kind: SpanKind.CONSUMER,
    attributes: () => messagingAttributes(msg.subject, 'process', msg.data?.length),
    parent: contextFromNatsHeaders(msg.headers, otelContext.active()),
  });
}

export interface NatsProcessOptions {
  /**
   * The subscribed subject pattern when message subjects carry ids (a KV
   * bucket's `$KV.kubelab.>`): the span is named after it, as the messaging
   * conventions ask for low-cardinality names; the subject itself stays in
   * messaging.destination.name.
   */
  template?: string;
  bodySize?: number;
  /** Extra attributes, set only on recording spans. */
  attributes?: () => Attributes;
}

/**
 * Runs `process` (synchronous) for a received message in a CONSUMER span,
 * the child of the publisher's context in `headers()`. Off, or without a
 * valid traceparent in the headers: `process()` alone — headers() is not
 * even called when off (a caller's header parse is skipped). Mirrors
 * natsPublish's parent rule: untraced messages start no traces.
 */
export function natsProcess<T>(tracing: Tracing, subject: string, headers: () => MsgHdrs | undefined, process: () => T, opts: NatsProcessOptions = {}): T {
  if (!tracing.enabled) return process();
  const h = headers();
  if (!h || !h.get(TRACEPARENT)) return process();
  const parent = propagator.extract(ROOT_CONTEXT, h, hdrGetter);
  if (!hasValidIds(trace.getSpanContext(parent))) return process();
  const span = tracing.tracer.startSpan(natsSpanName('process', opts.template ?? subject), { kind: SpanKind.CONSUMER }, parent);
  if (span.isRecording()) {
    span.setAttributes(messagingAttributes(subject, 'process', opts.bodySize, opts.template));
    if (opts.attributes) span.setAttributes(opts.attributes());
  }
  try {
    return otelContext.with(trace.setSpan(parent, span), process);
  } catch (err) {
    if (span.isRecording()) span.recordException(err as Error);
    throw err;
  } finally {
    span.end();
  }
}
