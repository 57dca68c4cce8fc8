// W3C trace context (`traceparent`/`tracestate`) in and out of string maps:
// the one propagator every carrier here (gRPC metadata, NATS headers, object
// annotations) goes through, as upstream uses the W3C propagator everywhere.

import {
  context as otelContext,
  INVALID_SPANID,
  INVALID_TRACEID,
  ROOT_CONTEXT,
  trace,
  type Context,
  type SpanContext,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
} from '@opentelemetry/api';
import { isTracingSuppressed, TraceState } from '@opentelemetry/core';

export const TRACEPARENT = 'traceparent';
export const TRACESTATE = 'tracestate';

/** True when s[from, to) is lowercase hex and not all zeros (W3C: an all-zero trace-id / parent-id is invalid). */
function hexNonZero(s: string, from: number, to: number): boolean {
  let nonZero = false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 48) continue; // '0'
    if (!((c > 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
    nonZero = true;
  }
  return nonZero;
}
function isHex2(s: string, at: number): boolean {
  for (let i = at; i < at + 2; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/**
 * A W3C `traceparent` (version-traceid-parentid-flags) as a span context, or
 * undefined when malformed. Fixed offsets instead of a regular expression: it
 * runs on every traced gRPC call, NATS message and object. As the spec asks:
 * version `ff` is invalid, version `00` has exactly four fields, a later
 * version may append `-…` fields (ignored).
 */
export function parseTraceparent(raw: string): SpanContext | undefined {
  const s = raw.length === 55 ? raw : raw.trim();
  if (s.length < 55 || (s.length > 55 && (s.charCodeAt(55) !== 45 || s.startsWith('00')))) return undefined;
  if (s.charCodeAt(2) !== 45 || s.charCodeAt(35) !== 45 || s.charCodeAt(52) !== 45) return undefined; // '-'
  if (!isHex2(s, 0) || s.startsWith('ff') || !isHex2(s, 53)) return undefined;
  if (!hexNonZero(s, 3, 35) || !hexNonZero(s, 36, 52)) return undefined;
  return { traceId: s.slice(3, 35), spanId: s.slice(36, 52), traceFlags: parseInt(s.slice(53, 55), 16), isRemote: true };
}

/** `00-{traceId}-{spanId}-{flags}`. */
export function formatTraceparent(sc: SpanContext): string {
  const f = (sc.traceFlags ?? 0) & 0xff;
  return `00-${sc.traceId}-${sc.spanId}-${f < 16 ? '0' : ''}${f.toString(16)}`;
}

/**
 * True when sc's ids are not the all-zero invalid ones: enough for span
 * contexts made by this package (its tracer's ids, parseTraceparent's checked
 * hex), without trace.isSpanContextValid's regular expressions per call.
 */
export function hasValidIds(sc: SpanContext | undefined): sc is SpanContext {
  return sc !== undefined && sc.traceId.length === 32 && sc.spanId.length === 16 && sc.traceId !== INVALID_TRACEID && sc.spanId !== INVALID_SPANID;
}

/** Writes sc as `traceparent` (and `tracestate`) through setter: the propagator's inject for a span in hand. */
export function injectSpanContext<C>(sc: SpanContext, carrier: C, setter: TextMapSetter<C>): void {
  setter.set(carrier, TRACEPARENT, formatTraceparent(sc));
  if (sc.traceState) setter.set(carrier, TRACESTATE, sc.traceState.serialize());
}

/**
 * The W3C Trace Context propagator (same behaviour as @opentelemetry/core's
 * W3CTraceContextPropagator: suppressed or invalid contexts are not injected,
 * `tracestate` travels along), with the fixed-offset parser above.
 */
export class W3CPropagator implements TextMapPropagator {
  inject(ctx: Context, carrier: unknown, setter: TextMapSetter): void {
    const sc = trace.getSpanContext(ctx);
    if (!sc || !trace.isSpanContextValid(sc) || isTracingSuppressed(ctx)) return;
    injectSpanContext(sc, carrier, setter);
  }

  extract(ctx: Context, carrier: unknown, getter: TextMapGetter): Context {
    const header = getter.get(carrier, TRACEPARENT);
    const tp = Array.isArray(header) ? header[0] : header;
    if (typeof tp !== 'string' || tp === '') return ctx;
    const sc = parseTraceparent(tp);
    if (!sc) return ctx;
    const ts = getter.get(carrier, TRACESTATE);
    if (ts) {
      const state = Array.isArray(ts) ? ts.join(',') : ts;
      sc.traceState = new TraceState(typeof state === 'string' ? state : undefined);
    }
    return trace.setSpanContext(ctx, sc);
  }

  fields(): string[] {
    return [TRACEPARENT, TRACESTATE];
  }
}

export const propagator = new W3CPropagator();

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
