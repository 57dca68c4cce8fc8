// The REST request span (upstream: apiserver's WithTracing filter, otelhttp
// around the whole handler chain). One SERVER span per request continuing a
// `traceparent` header, named as upstream names it: the method alone for
// non-resource paths (`GET`), `GET /api/v1/namespaces/{:namespace}/pods/{:name}`
// for resource requests (names hold no object names: few, stable names).
// The span starts before the REST handler parses the path, so the handler
// names it once it knows the RequestInfo: nameRestRequestSpan(req, info).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { context as otelContext, extractFromMap, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Tracing } from '@kubelab/tracing';

/** What a span name needs of src/endpoints' RequestInfo (structurally compatible with it). */
export interface RequestSpanInfo {
  /** 'resource' for resource requests; anything else is a non-resource path. */
  kind: string;
  group?: string;
  version?: string;
  namespace?: string;
  resource?: string;
  name?: string;
  subresource?: string;
}

/** Upstream's span name for a request (getSpanNameFromRequestInfo; the method for non-resource paths). */
export function restSpanName(method: string, info?: RequestSpanInfo): string {
  if (!info || info.kind !== 'resource' || !info.resource) return method;
  let path = info.group ? `/apis/${info.group}` : '/api';
  path += `/${info.version ?? 'v1'}`;
  if (info.namespace) path += '/namespaces/{:namespace}';
  path += `/${info.resource}`;
  if (info.name) path += '/{:name}';
  if (info.subresource) path += `/${info.subresource}`;
  return `${method} ${path}`;
}

const contexts = new WeakMap<IncomingMessage, Context>();

/** Renames req's request span once the path is parsed (no-op when tracing is off). */
export function nameRestRequestSpan(req: IncomingMessage, info: RequestSpanInfo): void {
  const ctx = contexts.get(req);
  if (ctx) trace.getSpan(ctx)?.updateName(restSpanName(req.method ?? 'GET', info));
}

/** The context of req's request span (undefined when tracing is off): handed to the registry as RequestContext.traceContext. */
export function restRequestContext(req: IncomingMessage): Context | undefined {
  return contexts.get(req);
}

function headerCarrier(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  const tp = req.headers.traceparent;
  const ts = req.headers.tracestate;
  if (typeof tp === 'string') out.traceparent = tp;
  if (typeof ts === 'string') out.tracestate = ts;
  return out;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * Wraps a REST handler: each request runs in a SERVER span that ends when the
 * response closes; its context reaches the registry as the RequestContext's
 * traceContext (restRequestContext), so storage spans and the traceparent
 * annotation attach to it without an async context manager. Returns handler
 * itself when tracing is off.
 */
export function traceRestHandler<H extends Handler>(tracing: Tracing | undefined, handler: H): H {
  if (!tracing?.enabled) return handler;
  const wrapped = (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    // A request arrives from the event loop: the caller's header is its only parent.
    const parent = extractFromMap(headerCarrier(req), ROOT_CONTEXT);
    const span = tracing.tracer.startSpan(
      restSpanName(method),
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': method,
          // upstream adds http.target (the request URI) to otelhttp's attributes
          'http.target': req.url ?? '/',
          ...(typeof req.headers['user-agent'] === 'string' ? { 'user_agent.original': req.headers['user-agent'] } : {}),
        },
      },
      parent,
    );
    const ctx = trace.setSpan(parent, span);
    contexts.set(req, ctx);
    // 'finish': the whole answer is handed to the OS; 'close' alone: the client went away first.
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      const code = res.statusCode;
      span.setAttribute('http.response.status_code', code);
      // OTel HTTP server conventions: only 5xx is the server's error.
      if (code >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      if (!res.writableFinished) span.setAttribute('http.connection.aborted', true);
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    // Active for the handler's synchronous start; the registry gets ctx explicitly (restRequestContext).
    return otelContext.with(ctx, () => handler(req, res));
  };
  return wrapped as H;
}
