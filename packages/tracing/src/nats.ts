// NATS messages carry the W3C trace context in headers, so the processing of
// a message lands in the trace of the span that published it: a CONSUMER span
// per processed message (OTel messaging conventions: span name
// `{messaging.operation.name} {destination}`, `messaging.operation.type`
// process). With tracing off no span is made and no header is read.

import type { MsgHdrs } from '@nats-io/transport-node';
import { context as otelContext, ROOT_CONTEXT, SpanKind, trace, type Attributes, type TextMapGetter } from '@opentelemetry/api';
import { hasValidIds, propagator, TRACEPARENT } from './propagation.js';
import type { Tracing } from './setup.js';

// One lookup per header: MsgHdrs.get scans the keys and answers '' when absent (has + get scanned twice).
const hdrGetter: TextMapGetter<MsgHdrs> = {
  keys: (h) => h.keys(),
  get: (h, k) => h.get(k) || undefined,
};

/** The messaging attributes of a processed message. */
function processAttributes(subject: string, bodySize?: number, template?: string): Attributes {
  return {
    'messaging.system': 'nats',
    'messaging.destination.name': subject,
    ...(template !== undefined ? { 'messaging.destination.template': template } : {}),
    'messaging.operation.name': 'process',
    'messaging.operation.type': 'process',
    ...(bodySize !== undefined ? { 'messaging.message.body.size': bodySize } : {}),
  };
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
 * even called when off (a caller's header parse is skipped). Untraced
 * messages start no traces, as untraced background work does not.
 */
export function natsProcess<T>(tracing: Tracing, subject: string, headers: () => MsgHdrs | undefined, process: () => T, opts: NatsProcessOptions = {}): T {
  if (!tracing.enabled) return process();
  const h = headers();
  if (!h || !h.get(TRACEPARENT)) return process();
  const parent = propagator.extract(ROOT_CONTEXT, h, hdrGetter);
  if (!hasValidIds(trace.getSpanContext(parent))) return process();
  const span = tracing.tracer.startSpan(`process ${opts.template ?? subject}`, { kind: SpanKind.CONSUMER }, parent);
  if (span.isRecording()) {
    span.setAttributes(processAttributes(subject, opts.bodySize, opts.template));
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
