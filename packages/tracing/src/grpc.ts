// gRPC spans with W3C trace context in metadata, as upstream's otelgrpc
// interceptors do for the kubelet's CRI client and the apiserver: a CLIENT span
// per call named like the RPC (`runtime.v1.RuntimeService/RunPodSandbox`),
// `traceparent` injected into the request metadata, and a SERVER span on the
// other side continuing it. With tracing off both helpers hand back exactly
// what they were given: no interceptor, no wrapper, no cost.
//
// Cost per traced call matters (a pod start makes ~12 gRPC calls; see
// bench/cpu.mjs): call sites that build their own metadata (the client
// library, the kubelet's CRI client) start the CLIENT span themselves with
// callTracedUnary (startClientRpc) and the interceptor stands aside, sparing
// grpc-js's intercepting-call layer and its per-call builders and closures.

import * as grpc from '@grpc/grpc-js';
import { context as otelContext, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { hasValidIds, injectSpanContext, propagator } from './propagation.js';
import type { Tracing } from './setup.js';

/** `/runtime.v1.RuntimeService/RunPodSandbox` → `runtime.v1.RuntimeService/RunPodSandbox` (the otelgrpc span name). */
export function rpcSpanName(path: string): string {
  return path.startsWith('/') ? path.slice(1) : path;
}

/** OTel RPC semantic-convention attributes for a method path. */
export function rpcAttributes(path: string): Attributes {
  const name = rpcSpanName(path);
  const slash = name.lastIndexOf('/');
  return { 'rpc.system': 'grpc', 'rpc.service': slash >= 0 ? name.slice(0, slash) : name, 'rpc.method': slash >= 0 ? name.slice(slash + 1) : name };
}

/** Name and attributes per method path, worked out once (a process calls a few dozen methods). */
interface RpcNames {
  name: string;
  attributes: Attributes;
}
const rpcNamesCache = new Map<string, RpcNames>();
function rpcNames(path: string): RpcNames {
  let n = rpcNamesCache.get(path);
  if (!n) rpcNamesCache.set(path, (n = { name: rpcSpanName(path), attributes: Object.freeze(rpcAttributes(path)) as Attributes }));
  return n;
}

/**
 * Starts an RPC span; attributes are set only when the span records (sampled):
 * an unsampled call pays for the span context it propagates, nothing more.
 */
function startRpcSpan(tracing: Tracing, path: string, kind: SpanKind.CLIENT | SpanKind.SERVER, parent: Context): Span {
  const n = rpcNames(path);
  const span = tracing.tracer.startSpan(n.name, { kind }, parent);
  if (span.isRecording()) span.setAttributes(n.attributes);
  return span;
}

const SERVER_CONTEXT = Symbol('kubelab.tracing.serverContext');
type WithServerContext = { [SERVER_CONTEXT]?: Context };
/**
 * The SERVER span's context of a call handled by traceServerHandlers, for code
 * that runs after the handler's first await without an async context manager
 * (the CRI server's call records; the apiserver's registry and storage spans).
 */
export function serverContextOf(call: object): Context | undefined {
  return (call as WithServerContext)[SERVER_CONTEXT];
}
/** The SERVER span of a call handled by traceServerHandlers (see serverContextOf). */
export function serverSpanOf(call: object): Span | undefined {
  const ctx = (call as WithServerContext)[SERVER_CONTEXT];
  return ctx ? trace.getSpan(ctx) : undefined;
}

/**
 * CallOptions carrying the caller's trace context explicitly: the client
 * interceptor parents its span on `traceContext` instead of the active
 * context, so a caller need not keep a context active (the sync manager
 * drops it at the first await). grpc-js hands CallOptions' own fields to
 * interceptors unchanged.
 */
export interface TracedCallOptions extends grpc.CallOptions {
  traceContext?: Context;
}

/** Server spans are errors only for codes that mean the server failed (OTel RPC conventions); client spans for any non-OK. */
const SERVER_ERROR_CODES = new Set<number>([grpc.status.UNKNOWN, grpc.status.DEADLINE_EXCEEDED, grpc.status.UNIMPLEMENTED, grpc.status.INTERNAL, grpc.status.UNAVAILABLE, grpc.status.DATA_LOSS]);

export function endRpcSpan(span: Span, kind: SpanKind.CLIENT | SpanKind.SERVER, code: number, details?: string): void {
  if (!span.isRecording()) return span.end();
  span.setAttribute('rpc.grpc.status_code', code);
  const failed = kind === SpanKind.CLIENT ? code !== grpc.status.OK : SERVER_ERROR_CODES.has(code);
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: `${grpc.status[code] ?? code}: ${details ?? ''}`.trimEnd() });
  span.end();
}

export const metadataSetter: TextMapSetter<grpc.Metadata> = {
  set: (md, key, value) => md.set(key, value),
};
export const metadataGetter: TextMapGetter<grpc.Metadata> = {
  keys: (md) => Object.keys(md.getMap()),
  get: (md, key) => {
    const v = md.get(key)[0];
    return typeof v === 'string' ? v : undefined;
  },
};

/** The caller's context carried in request metadata (ROOT when absent). */
export function contextFromMetadata(md: grpc.Metadata, base: Context = otelContext.active()): Context {
  return propagator.extract(base, md, metadataGetter);
}

/** Writes ctx's `traceparent` into md (used by the interceptor; exported for hand-made calls). */
export function injectMetadata(md: grpc.Metadata, ctx: Context = otelContext.active()): grpc.Metadata {
  propagator.inject(ctx, md, metadataSetter);
  return md;
}

/**
 * Writes span's `traceparent` (and `tracestate`) into md: the propagator's
 * answer for a context holding span, without building that context. A span
 * of a suppressed context is invalid (all-zero ids) and writes nothing.
 */
function injectSpan(md: grpc.Metadata, span: Span): void {
  const sc = span.spanContext();
  if (hasValidIds(sc)) injectSpanContext(sc, md, metadataSetter);
}

/** How a finished call ended: null/undefined for OK, else the error (a grpc ServiceError, or any Error). */
export type RpcOutcome = { code?: unknown; details?: unknown; message?: unknown } | null | undefined;

/** Marks the CallOptions of a call whose CLIENT span its caller started (startClientRpc): the interceptor stands aside. */
const CALLER_TRACED = Symbol('kubelab.tracing.callerTraced');
/** The Tracing behind each interceptor grpcClientInterceptors made (see tracingOfInterceptors). */
const interceptorTracing = new WeakMap<grpc.Interceptor, Tracing>();

/**
 * The Tracing of a grpcClientInterceptors list, if it holds one: lets a call
 * site that was handed interceptors trace its unary calls with
 * callTracedUnary instead. Undefined for no list, an empty one (tracing off)
 * or foreign interceptors only.
 */
export function tracingOfInterceptors(interceptors: readonly grpc.Interceptor[] | undefined): Tracing | undefined {
  if (!interceptors) return undefined;
  for (const i of interceptors) {
    const t = interceptorTracing.get(i);
    if (t) return t;
  }
  return undefined;
}

/**
 * Starts the CLIENT span of a call its caller is about to make (same span,
 * name, attributes and `traceparent` as the interceptor's) and marks `opts`
 * so grpcClientInterceptors on the same client stand aside. The metadata must
 * be the call's own (the `traceparent` is set into it). Returns the function
 * to call with the call's outcome (its error, or null) when it completes.
 */
export function startClientRpc(tracing: Tracing, path: string, md: grpc.Metadata, opts: grpc.CallOptions, parent: Context = otelContext.active()): (outcome: RpcOutcome) => void {
  (opts as Record<symbol, unknown>)[CALLER_TRACED] = true;
  const span = startRpcSpan(tracing, path, SpanKind.CLIENT, parent);
  injectSpan(md, span);
  return (outcome) => {
    if (!outcome) endRpcSpan(span, SpanKind.CLIENT, grpc.status.OK);
    else {
      const { code, details } = errorCode(outcome);
      endRpcSpan(span, SpanKind.CLIENT, code, details);
    }
  };
}

/** A generated client's unary method as called with metadata and options; `path` names its span. */
export type UnaryMethod<Req, Res> = ((req: Req, md: grpc.Metadata, opts: grpc.CallOptions, callback: (err: grpc.ServiceError | null, res?: Res) => void) => grpc.ClientUnaryCall) & { path: string };

/**
 * Makes a unary call of `client` in its own CLIENT span (startClientRpc): the
 * one traced call path of the client library and the kubelet's CRI client.
 * `md` and `opts` are the call's own (the span's `traceparent` goes into md);
 * the span's parent is `parent`, else the active context. The span has ended
 * when `callback` runs.
 */
export function callTracedUnary<Req, Res>(
  tracing: Tracing,
  client: grpc.Client,
  method: UnaryMethod<Req, Res>,
  req: Req,
  md: grpc.Metadata,
  opts: grpc.CallOptions,
  parent: Context | undefined,
  callback: (err: grpc.ServiceError | null, res?: Res) => void,
): grpc.ClientUnaryCall {
  const done = startClientRpc(tracing, method.path, md, opts, parent ?? otelContext.active());
  return method.call(client, req, md, opts, (err, res) => {
    done(err);
    callback(err, res);
  });
}

/**
 * Client interceptors for `new XxxClient(addr, creds, { interceptors: grpcClientInterceptors(tracing) })`
 * (or per call in CallOptions). Empty when tracing is off. Calls traced by
 * their caller (startClientRpc) pass straight through.
 */
export function grpcClientInterceptors(tracing: Tracing): grpc.Interceptor[] {
  if (!tracing.enabled) return [];
  const interceptor: grpc.Interceptor = (options, nextCall) => {
    if ((options as unknown as Record<symbol, unknown>)[CALLER_TRACED]) return nextCall(options) as grpc.InterceptingCall; // grpc-js takes any intercepting call
    const path = options.method_definition.path;
    // The caller's context: given in the call options, else the active one (the
    // interceptor runs synchronously inside the client call, so that is the caller's).
    const parent = (options as TracedCallOptions).traceContext ?? otelContext.active();
    const span = startRpcSpan(tracing, path, SpanKind.CLIENT, parent);
    let ended = false;
    const end = (code: number, details?: string) => {
      if (ended) return;
      ended = true;
      endRpcSpan(span, SpanKind.CLIENT, code, details);
    };
    const requester = new grpc.RequesterBuilder()
      .withStart((metadata, listener, next) => {
        injectSpan(metadata, span);
        next(
          metadata,
          new grpc.ListenerBuilder()
            .withOnReceiveStatus((status, nextStatus) => {
              end(status.code, status.details);
              nextStatus(status);
            })
            .build(),
        );
      })
      .build();
    return new grpc.InterceptingCall(nextCall(options), requester);
  };
  interceptorTracing.set(interceptor, tracing);
  return [interceptor];
}

type AnyHandler = grpc.UntypedHandleCall;

function startServerSpan(tracing: Tracing, path: string, call: { metadata: grpc.Metadata }): { span: Span; ctx: Context } {
  // A call arrives from the event loop: nothing of ours is active, the caller's context is all there is.
  const parent = contextFromMetadata(call.metadata, ROOT_CONTEXT);
  const span = startRpcSpan(tracing, path, SpanKind.SERVER, parent);
  // parent holds nothing but the caller's span context, which the span replaces: one context less per call.
  const ctx = trace.setSpan(ROOT_CONTEXT, span);
  // On the call itself rather than in a WeakMap: no ephemeron entry per call for the GC to process.
  (call as WithServerContext)[SERVER_CONTEXT] = ctx;
  return { span, ctx };
}

function errorCode(err: unknown): { code: number; details?: string } {
  const e = err as { code?: unknown; details?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'number' ? e.code : grpc.status.UNKNOWN;
  const details = typeof e?.details === 'string' ? e.details : typeof e?.message === 'string' ? e.message : undefined;
  return details === undefined ? { code } : { code, details };
}

function wrapHandler(tracing: Tracing, def: grpc.MethodDefinition<unknown, unknown>, handler: AnyHandler): AnyHandler {
  const path = def.path;
  if (!def.responseStream) {
    // Unary and client-streaming: the callback carries the outcome.
    return ((call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const { span, ctx } = startServerSpan(tracing, path, call);
      const done: grpc.sendUnaryData<unknown> = (err, value, trailer, flags) => {
        if (err) {
          const { code, details } = errorCode(err);
          endRpcSpan(span, SpanKind.SERVER, code, details);
        } else endRpcSpan(span, SpanKind.SERVER, grpc.status.OK);
        callback(err, value, trailer, flags);
      };
      otelContext.with(ctx, handler as grpc.handleUnaryCall<unknown, unknown>, undefined, call, done);
    }) as AnyHandler;
  }
  // Server-streaming and bidi (watches): the span lasts until the stream ends.
  return ((call: grpc.ServerWritableStream<unknown, unknown>) => {
    const { span, ctx } = startServerSpan(tracing, path, call);
    let ended = false;
    const end = (code: number, details?: string) => {
      if (ended) return;
      ended = true;
      endRpcSpan(span, SpanKind.SERVER, code, details);
    };
    call.once('error', (err: unknown) => {
      const { code, details } = errorCode(err);
      end(code, details);
    });
    call.once('cancelled', () => end(grpc.status.CANCELLED, 'cancelled by the client'));
    call.once('finish', () => end(grpc.status.OK));
    otelContext.with(ctx, handler as grpc.handleServerStreamingCall<unknown, unknown>, undefined, call);
  }) as AnyHandler;
}

/**
 * Wraps a service implementation so each call runs in a SERVER span continuing
 * the caller's `traceparent`; the span is active inside the handler (child
 * spans, e.g. storage, attach to it). Returns `impl` itself when tracing is off.
 */
export function traceServerHandlers<I extends object>(tracing: Tracing, service: grpc.ServiceDefinition, impl: I): I {
  if (!tracing.enabled) return impl;
  // grpc-js accepts handlers under the method name or its camelCase originalName.
  const defs = new Map<string, grpc.MethodDefinition<unknown, unknown>>();
  for (const [name, def] of Object.entries(service) as [string, grpc.MethodDefinition<unknown, unknown>][]) {
    defs.set(name, def);
    if (def.originalName) defs.set(def.originalName, def);
  }
  const out: Record<string, unknown> = {};
  for (const [name, handler] of Object.entries(impl)) {
    const def = defs.get(name);
    out[name] = def && typeof handler === 'function' ? wrapHandler(tracing, def, handler as AnyHandler) : handler;
  }
  return out as I;
}
