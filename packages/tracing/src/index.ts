// @kubelab/tracing: the OpenTelemetry setup every kubelab service shares.
export { resolveTracingConfig, normalizeEndpoint, tracingOptionsFromFlags, TracingConfigError, TRACING_FLAGS, type TracingOptions, type ResolvedTracingConfig } from './config.js';
export { addTracingFlags } from './flags.js';
export { SyncContextManager, installedContextPropagation, type ContextPropagation } from './context.js';
export { setupTracing, samplerFor, resourceAttributes, recordError, type Tracing, type SetupTracingOptions, type SpanOptions } from './setup.js';
export { propagator, W3CPropagator, parseTraceparent, formatTraceparent, injectToMap, extractFromMap, currentTraceparent, hasSpanContext, TRACEPARENT, TRACESTATE } from './propagation.js';
export {
  grpcClientInterceptors,
  startClientRpc,
  callTracedUnary,
  tracingOfInterceptors,
  traceServerHandlers,
  serverSpanOf,
  serverContextOf,
  contextFromMetadata,
  injectMetadata,
  rpcSpanName,
  rpcAttributes,
  endRpcSpan,
  type TracedCallOptions,
  type RpcOutcome,
  type UnaryMethod,
} from './grpc.js';
export { natsProcess, type NatsProcessOptions } from './nats.js';
export { TRACEPARENT_ANNOTATION, TRACED_RESOURCES, objectTraceparent, withObjectTraceparent, withTraceContextAnnotation, traceparentOf, traceparentFor, contextFromObject } from './object.js';
export { context, trace, SpanKind, SpanStatusCode, ROOT_CONTEXT, type Context, type Span, type Tracer } from '@opentelemetry/api';
