// W3C trace context (`traceparent`/`tracestate`) in and out of string maps:
// the one propagator every carrier here (gRPC metadata, NATS headers, object
// annotations) goes through, as upstream uses the W3C propagator everywhere.

import { context as otelContext, ROOT_CONTEXT, trace, type Context, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

export const propagator = new W3CTraceContextPropagator();

export const TRACEPARENT = 'traceparent';
export const TRACESTATE = 'tracestate';

type Carrier = Record<string, string>;

const mapGetter: TextMapGetter<Carrier> = {
  keys: (c) => Object.keys(c),
  get: (c, k) => c[k],
};
const mapSetter: TextMapSetter<Carrier> = {
  set: (c, k, v) => {
    c[k] = v;
  },
};

/** The `traceparent` (and `tracestate`) of ctx's span, or {} when it has no valid span. */
export function injectToMap(ctx: Context = otelContext.active()): Carrier {
  const out: Carrier = {};
  propagator.inject(ctx, out, mapSetter);
  return out;
}

/** A context whose remote parent is the carrier's `traceparent` (base unchanged when absent or malformed). */
export function extractFromMap(carrier: Carrier, base: Context = ROOT_CONTEXT): Context {
  return propagator.extract(base, carrier, mapGetter);
}

/** The traceparent of the active span, e.g. for a log line; undefined without one. */
export function currentTraceparent(ctx: Context = otelContext.active()): string | undefined {
  return injectToMap(ctx)[TRACEPARENT];
}

/** True when ctx carries a valid span context (local or remote). */
export function hasSpanContext(ctx: Context): boolean {
  const sc = trace.getSpanContext(ctx);
  return sc !== undefined && trace.isSpanContextValid(sc);
}
