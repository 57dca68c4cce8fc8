// A lean span path for every span of a service: the OTel SDK's own span
// processors and exporters (BatchSpanProcessor → OTLP, or the in-memory one
// in tests) receive the same ReadableSpan data, but starting and ending a span
// skips what the SDK's Tracer does on top and kubelab never uses: its
// self-metrics (TracerMetrics), link and attribute sanitising of options, the
// regular-expression id checks and diag calls per span. Measured in
// bench/cpu.mjs and the pod-start bench: a pod start makes ~35 spans in five
// processes, and the SDK's startSpan was the largest tracing item in the
// kubelet's and containerd's profiles.
//
// Semantics kept: ParentBased sampling (a valid parent's sampled flag
// decides; a root asks the configured sampler), trace state inherited from
// the parent, suppressed contexts give a non-recording invalid span, the
// SDK's default limits of 128 attributes, events and links per span, and
// `exception` events as the SDK records them.

import {
  context as otelContext,
  INVALID_SPAN_CONTEXT,
  INVALID_SPANID,
  INVALID_TRACEID,
  SamplingDecision,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type AttributeValue,
  type Context,
  type Exception,
  type HrTime,
  type Link,
  type Span,
  type SpanContext,
  type SpanOptions as ApiSpanOptions,
  type SpanStatus,
  type TimeInput,
  type Tracer,
} from '@opentelemetry/api';
import { isTracingSuppressed, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, Sampler, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { hasValidIds } from './propagation.js';

/** The SDK's default span limits (OTEL_SPAN_*_COUNT_LIMIT unset). */
const LIMIT = 128;

/** Random ids as lowercase hex, never all zeros (W3C); a Buffer's hex is ~6x cheaper than Number#toString(16). */
const ID_BYTES = Buffer.allocUnsafe(16);
function randomHex(bytes: 8 | 16): string {
  for (let i = 0; i < bytes; i += 4) ID_BYTES.writeUInt32BE((Math.random() * 0x100000000) >>> 0, i);
  const id = ID_BYTES.toString('hex', 0, bytes);
  return id === INVALID_SPANID || id === INVALID_TRACEID ? `${id.slice(0, -1)}1` : id;
}
export const newSpanId = (): string => randomHex(8);
export const newTraceId = (): string => randomHex(16);

/** Wall-clock time as OTel's [seconds, nanoseconds] from the monotonic clock (as the SDK does). */
const TIME_ORIGIN = performance.timeOrigin;
function hrNow(): HrTime {
  return toHr(TIME_ORIGIN + performance.now());
}
function toHr(ms: number): HrTime {
  const s = Math.floor(ms / 1000);
  const ns = Math.round((ms - s * 1000) * 1e6);
  return ns >= 1e9 ? [s + 1, ns - 1e9] : [s, ns];
}
function toHrTime(t: TimeInput | undefined): HrTime {
  if (t === undefined) return hrNow();
  if (Array.isArray(t)) return t as HrTime;
  if (t instanceof Date) return toHr(t.getTime());
  // A number: a performance.now() reading when below the time origin, else epoch milliseconds (the SDK's rule).
  return toHr(t < TIME_ORIGIN ? TIME_ORIGIN + t : t);
}
function hrDuration(a: HrTime, b: HrTime): HrTime {
  let s = b[0] - a[0];
  let ns = b[1] - a[1];
  if (ns < 0) {
    s -= 1;
    ns += 1e9;
  }
  return [s, ns];
}

function isAttributeValue(v: unknown): v is AttributeValue {
  if (v === null || v === undefined) return false;
  const t = typeof v;
  if (t === 'string' || t === 'number' || t === 'boolean') return true;
  return Array.isArray(v) && v.every((x) => x === null || x === undefined || ['string', 'number', 'boolean'].includes(typeof x));
}

interface SpanSetup {
  resource: Resource;
  scope: InstrumentationScope;
  processors: readonly SpanProcessor[];
}

/** A recording (sampled) span: the API's Span and the SDK's ReadableSpan in one object. */
class LeanSpan implements Span, ReadableSpan {
  readonly attributes: Attributes = {};
  readonly links: Link[] = [];
  readonly events: TimedEvent[] = [];
  readonly startTime: HrTime;
  endTime: HrTime = [0, 0];
  duration: HrTime = [-1, -1];
  status: SpanStatus = { code: SpanStatusCode.UNSET };
  ended = false;
  droppedAttributesCount = 0;
  droppedEventsCount = 0;
  droppedLinksCount = 0;
  private attributeCount = 0;

  constructor(
    private readonly setup: SpanSetup,
    private readonly sc: SpanContext,
    public name: string,
    readonly kind: SpanKind,
    readonly parentSpanContext: SpanContext | undefined,
    startTime: TimeInput | undefined,
  ) {
    this.startTime = toHrTime(startTime);
  }

  get resource(): Resource {
    return this.setup.resource;
  }
  get instrumentationScope(): InstrumentationScope {
    return this.setup.scope;
  }

  spanContext(): SpanContext {
    return this.sc;
  }

  setAttribute(key: string, value: AttributeValue): this {
    if (this.ended || key.length === 0 || !isAttributeValue(value)) return this;
    // Stored values are never undefined, so undefined means a new key.
    if (this.attributes[key] === undefined) {
      if (this.attributeCount >= LIMIT) {
        this.droppedAttributesCount++;
        return this;
      }
      this.attributeCount++;
    }
    this.attributes[key] = value;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const k of Object.keys(attributes)) {
      const v = attributes[k];
      if (v !== undefined) this.setAttribute(k, v);
    }
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.ended) return this;
    const isTime = attributesOrTime instanceof Date || typeof attributesOrTime === 'number' || Array.isArray(attributesOrTime);
    const attributes = isTime ? undefined : (attributesOrTime as Attributes | undefined);
    if (this.events.length >= LIMIT) {
      this.events.shift();
      this.droppedEventsCount++;
    }
    const ev: TimedEvent = { name, time: toHrTime(isTime ? (attributesOrTime as TimeInput) : time), droppedAttributesCount: 0 };
    if (attributes) ev.attributes = attributes;
    this.events.push(ev);
    return this;
  }

  addLink(link: Link): this {
    if (this.ended) return this;
    if (this.links.length >= LIMIT) this.droppedLinksCount++;
    else this.links.push(link);
    return this;
  }

  addLinks(links: Link[]): this {
    for (const l of links) this.addLink(l);
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (this.ended || status.code === SpanStatusCode.UNSET || this.status.code === SpanStatusCode.OK) return this;
    this.status = status.code === SpanStatusCode.ERROR && typeof status.message === 'string' ? { code: status.code, message: status.message } : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.name = name;
    return this;
  }

  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.endTime = toHrTime(endTime);
    this.duration = hrDuration(this.startTime, this.endTime);
    if (this.duration[0] < 0) {
      this.endTime = [this.startTime[0], this.startTime[1]];
      this.duration = [0, 0];
    }
    this.ended = true;
    for (const p of this.setup.processors) p.onEnd(this);
  }

  isRecording(): boolean {
    return !this.ended;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') attributes['exception.message'] = exception;
    else if (exception) {
      if (exception.code !== undefined) attributes['exception.type'] = String(exception.code);
      else if (exception.name) attributes['exception.type'] = exception.name;
      if (exception.message) attributes['exception.message'] = exception.message;
      if (exception.stack) attributes['exception.stacktrace'] = exception.stack;
    }
    if (attributes['exception.type'] !== undefined || attributes['exception.message'] !== undefined) this.addEvent('exception', attributes, time);
  }
}

/** The Tracer of a traced service (setupTracing), feeding the SDK's span processors. */
export class LeanTracer implements Tracer {
  private readonly setup: SpanSetup;

  constructor(
    private readonly sampler: Sampler,
    resource: Resource,
    scope: InstrumentationScope,
    processors: readonly SpanProcessor[],
  ) {
    this.setup = { resource, scope, processors };
  }

  startSpan(name: string, options: ApiSpanOptions = {}, ctx: Context = otelContext.active()): Span {
    if (options.root) ctx = trace.deleteSpan(ctx);
    if (isTracingSuppressed(ctx)) return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    const parent = trace.getSpanContext(ctx);
    const kind = options.kind ?? SpanKind.INTERNAL;
    // A parent made by this package or parsed from traceparent has well-formed ids; only all-zero ones are invalid.
    const hasParent = hasValidIds(parent);
    const traceId = hasParent ? parent.traceId : newTraceId();
    let sampled: boolean;
    let traceState = hasParent ? parent.traceState : undefined;
    if (hasParent) {
      // ParentBased: the parent's decision, remote or local.
      sampled = (parent.traceFlags & TraceFlags.SAMPLED) !== 0;
    } else {
      const r = this.sampler.shouldSample(ctx, traceId, name, kind, options.attributes ?? {}, options.links ?? []);
      sampled = r.decision === SamplingDecision.RECORD_AND_SAMPLED;
      traceState = r.traceState ?? traceState;
    }
    const sc: SpanContext = { traceId, spanId: newSpanId(), traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE };
    if (traceState) sc.traceState = traceState;
    if (!sampled) return trace.wrapSpanContext(sc);
    const span = new LeanSpan(this.setup, sc, name, kind, hasParent ? parent : undefined, options.startTime);
    if (options.attributes) span.setAttributes(options.attributes);
    if (options.links) span.addLinks(options.links);
    for (const p of this.setup.processors) p.onStart(span as never, ctx);
    return span;
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...args: [F] | [ApiSpanOptions, F] | [ApiSpanOptions, Context, F]): ReturnType<F> {
    const fn = args[args.length - 1] as F;
    const opts = args.length > 1 ? (args[0] as ApiSpanOptions) : undefined;
    const parent = args.length > 2 ? (args[1] as Context) : otelContext.active();
    const span = this.startSpan(name, opts, parent);
    return otelContext.with(trace.setSpan(parent, span), () => fn(span)) as ReturnType<F>;
  }
}
