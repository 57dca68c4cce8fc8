// One gRPC channel to the apiserver shared by every typed client (client-go's
// rest.Config + transport): user agent, connection health check, fast transparent
// reconnects, per-call deadline, trace context, and retried idempotent reads.

import * as grpc from '@grpc/grpc-js';
import { apiserverProto, type ResourceServiceClient } from '@kubelab/proto';
import {
  callTracedUnary,
  context as otelContext,
  extractFromMap,
  hasSpanContext,
  injectMetadata,
  injectToMap,
  startClientRpc,
  tracingOfInterceptors,
  type Context,
  type RpcOutcome,
  type Tracing,
  type UnaryMethod,
} from '@kubelab/tracing';
import { Backoff } from '../util/backoff.js';
import { realClock, type Clock } from '../util/clock.js';
import { grpcCodeOf, isUnavailable, MAX_RETRY_AFTER_ATTEMPTS, retryAfterSeconds, toStatusError } from './errors.js';
import { ComponentCredentials } from './credentials.js';
import { healthCheckFromEnv, keepaliveOptions, type HealthCheck } from './health-check.js';
import { recordClientRequest } from './metrics.js';
import { CreatePipeline, type CreateStreamCall, type ItemTrace, type PipelinedWrite } from './create-pipeline.js';

export interface ConnectionConfig {
  /** `host:port` of the apiserver's gRPC endpoint. */
  address: string;
  /** The component name, sent in the user agent (`kube-scheduler/kubelab`). */
  component?: string;
  /** Full user agent; overrides component. */
  userAgent?: string;
  credentials?: grpc.ChannelCredentials;
  /** Mutual TLS with the apiserver (from the component's kubeconfig); ignored when `credentials` is given. */
  tls?: ClientTls;
  /** Deadline of unary calls (default 30 s). */
  timeoutMs?: number;
  /** Attempts for reads failing with UNAVAILABLE (default 5), backoff 100 ms doubling to 2 s. */
  readRetries?: { attempts?: number; initialMs?: number; maxMs?: number };
  /**
   * The connection health check (client-go's HTTP/2 ReadIdleTimeout and
   * PingTimeout, see health-check.ts); false turns it off. Default: from
   * HTTP2_READ_IDLE_TIMEOUT_SECONDS and HTTP2_PING_TIMEOUT_SECONDS, else 30 s and 15 s.
   */
  healthCheck?: HealthCheck | false;
  /** Extra channel options (grpc.*). */
  channelOptions?: grpc.ChannelOptions;
  /** Metadata sent with every call. */
  metadata?: Record<string, string>;
  /**
   * A bearer token sent with every call as `authorization` metadata (a
   * ServiceAccount token: the controller-manager's per-controller
   * credentials); read per call, so a refreshed token takes effect at once.
   */
  bearerToken?: () => string | undefined;
  /**
   * gRPC client interceptors for every call, e.g. `grpcClientInterceptors(tracing)`
   * from @kubelab/tracing (a CLIENT span per call, as client-go's otelhttp transport).
   */
  interceptors?: grpc.Interceptor[];
  clock?: Clock;
  /**
   * Writes but deletes (creates, bindings, updates, patches, token requests) travel
   * pipelined on one CreateStream (default true; see create-pipeline.ts). A
   * write with a signal or a timeout is its own call; a trace context (given,
   * or active while interceptors are set) travels with its item
   * (CreateStreamItem.traceparent), in a CLIENT span of its own when tracing
   * is on.
   */
  pipelineWrites?: boolean;
}

/** Per call: cancellation, deadline and the caller's trace context. */
export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * The caller's trace context (an OpenTelemetry Context, e.g. `contextFromObject(pod)`
   * or the active one of a sync): the call's parent. Wins over `traceparent`.
   */
  traceContext?: Context;
  /** W3C trace context of the caller as text; sent as `traceparent` metadata (the parent when there is no traceContext). */
  traceparent?: string;
  tracestate?: string;
}

const SERVICE_PATH = '/kubelab.apiserver.v1.ResourceService';
const EMPTY = Buffer.alloc(0);

/** The HTTP status the REST request a call stands for answers with when it succeeds (POST: 201 Created). */
function successCode(method: string): number {
  return method === 'Create' || method === 'Bind' || method === 'CreateToken' ? 201 : 200;
}

/** The call a pipelined write stands for. */
function writeMethod(w: PipelinedWrite): 'Create' | 'Bind' | 'Update' | 'UpdateStatus' | 'Patch' | 'CreateToken' {
  return 'request' in w ? 'Create' : 'bind' in w ? 'Bind' : 'update' in w ? 'Update' : 'updateStatus' in w ? 'UpdateStatus' : 'patch' in w ? 'Patch' : 'CreateToken';
}

function itemTrace(traceparent: unknown, tracestate: unknown): ItemTrace | undefined {
  if (typeof traceparent !== 'string' || !traceparent) return undefined;
  return typeof tracestate === 'string' && tracestate ? { traceparent, tracestate } : { traceparent };
}

type Unary = 'Get' | 'List' | 'Create' | 'Update' | 'UpdateStatus' | 'Patch' | 'Delete' | 'Bind' | 'CreateToken';
type ReqOf<M extends Unary> = Parameters<ResourceServiceClient[M]>[0];
type ResOf<M extends Unary> = Parameters<ResourceServiceClient[M]> extends [unknown, grpc.requestCallback<infer R>] ? R : never;

/** The client side of the apiserver's mutual TLS: whom to trust and who this is (PEM). */
export interface ClientTls {
  caPem: string;
  certPem: string;
  keyPem: string;
  /** The name to expect in the apiserver's certificate when it differs from the address's host. */
  serverName?: string;
}

function channelCredentials(tls: ClientTls | undefined): grpc.ChannelCredentials {
  if (!tls) return grpc.credentials.createInsecure();
  // No client certificate (empty): server-authenticated TLS; the identity is the bearer token.
  if (!tls.certPem || !tls.keyPem) return grpc.credentials.createSsl(Buffer.from(tls.caPem));
  return grpc.credentials.createSsl(Buffer.from(tls.caPem), Buffer.from(tls.keyPem), Buffer.from(tls.certPem));
}

export class Connection {
  private current: ResourceServiceClient;
  readonly userAgent: string;
  private readonly timeoutMs: number;
  private readonly retry: { attempts: number; initialMs: number; maxMs: number };
  private readonly baseMetadata: Record<string, string>;
  /** The tracing behind config.interceptors (grpcClientInterceptors): unary calls start their CLIENT span here, not in the interceptor. */
  private readonly tracing: Tracing | undefined;
  readonly clock: Clock;

  constructor(readonly config: ConnectionConfig) {
    this.clock = config.clock ?? realClock;
    this.userAgent = config.userAgent ?? `${config.component ?? 'kubelab-client'}/kubelab`;
    this.timeoutMs = config.timeoutMs ?? 30_000;
    this.retry = { attempts: 5, initialMs: 100, maxMs: 2000, ...config.readRetries };
    this.baseMetadata = config.metadata ?? {};
    this.tracing = tracingOfInterceptors(config.interceptors);
    this.current = this.dial(config.tls);
  }

  /** The ResourceService client of the channel in use. */
  get client(): ResourceServiceClient {
    return this.current;
  }

  private dial(tls: ClientTls | undefined): ResourceServiceClient {
    const config = this.config;
    const Ctor = apiserverProto().kubelab.apiserver.v1.ResourceService;
    const credentials = config.credentials ?? channelCredentials(tls);
    const check = config.healthCheck === false ? undefined : (config.healthCheck ?? healthCheckFromEnv());
    return new Ctor(config.address, new ComponentCredentials(credentials, check), {
      ...(tls?.serverName ? { 'grpc.ssl_target_name_override': tls.serverName } : {}),
      'grpc.primary_user_agent': this.userAgent,
      ...keepaliveOptions(check),
      // reconnect quickly after an apiserver restart instead of grpc's 1 s → 120 s
      'grpc.initial_reconnect_backoff_ms': 100,
      'grpc.max_reconnect_backoff_ms': 2_000,
      // lists of many objects exceed grpc's 4 MiB default; the object limit is 1.5 MiB
      'grpc.max_receive_message_length': 256 * 1024 * 1024,
      'grpc.max_send_message_length': 16 * 1024 * 1024,
      // many busy watches share one HTTP/2 connection; the 64 KiB default
      // window stalls them behind each other for seconds
      'grpc-node.flow_control_window': 16 * 1024 * 1024,
      ...config.channelOptions,
      ...(config.interceptors?.length ? { interceptors: config.interceptors } : {}),
    });
  }

  /**
   * A new identity (a rotated client certificate): later calls dial a new
   * channel with it and the old one is closed, so its watches end and are
   * re-established (upstream closes the transport's connections on rotation).
   */
  setTls(tls: ClientTls): void {
    const old = this.current;
    this.current = this.dial(tls);
    this.pipeline?.close();
    this.pipeline = undefined;
    old.close();
  }

  /**
   * Call metadata: base entries plus the caller's trace context. A tracing
   * interceptor replaces the `traceparent` with its CLIENT span's (a child of it).
   */
  metadata(opts: RequestOptions = {}): grpc.Metadata {
    const md = this.baseMetadataOnly();
    if (opts.traceContext) injectMetadata(md, opts.traceContext);
    else {
      if (opts.traceparent) md.set('traceparent', opts.traceparent);
      if (opts.tracestate) md.set('tracestate', opts.tracestate);
    }
    return md;
  }

  /** Base entries only: the traced unary path writes the CLIENT span's traceparent itself. */
  private baseMetadataOnly(): grpc.Metadata {
    const md = new grpc.Metadata();
    for (const k in this.baseMetadata) md.set(k, this.baseMetadata[k]!);
    const token = this.config.bearerToken?.();
    if (token) md.set('authorization', `Bearer ${token}`);
    return md;
  }

  /** The caller's context given per call: traceContext, else one made from a traceparent string. */
  private parentContext(opts: RequestOptions): Context | undefined {
    return opts.traceContext ?? (opts.traceparent ? extractFromMap(traceCarrier(opts), otelContext.active()) : undefined);
  }

  /**
   * Starts a (streaming) call with the caller's trace context active, so an
   * interceptor's CLIENT span is its child; without interceptors nothing but metadata is needed.
   */
  private inTraceContext<R>(opts: RequestOptions, start: () => R): R {
    if (!this.config.interceptors?.length) return start();
    const parent = this.parentContext(opts);
    return parent ? otelContext.with(parent, start) : start();
  }

  /** One unary call, sent again (up to 10 times) after a 429 with Retry-After, as client-go does; errors become StatusErrors. */
  async unary<M extends Unary>(method: M, req: ReqOf<M>, opts: RequestOptions = {}): Promise<ResOf<M>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.unaryOnce(method, req, opts);
      } catch (err) {
        const wait = retryAfterSeconds(err);
        if (wait === undefined || attempt >= MAX_RETRY_AFTER_ATTEMPTS || opts.signal?.aborted) throw err;
        await this.clock.sleep(wait * 1000, opts.signal);
      }
    }
  }

  /** `counted` false: the caller counts the call in rest_client_requests_total (a pipelined write sent as its own call). */
  private unaryOnce<M extends Unary>(method: M, req: ReqOf<M>, opts: RequestOptions, counted = true): Promise<ResOf<M>> {
    return new Promise((resolve, reject) => {
      if (opts.signal?.aborted) return reject(toStatusError(abortError(method)));
      // gRPC deadlines are wall-clock, whatever clock drives the retry backoff
      const callOpts: grpc.CallOptions = { deadline: new Date(Date.now() + (opts.timeoutMs ?? this.timeoutMs)) };
      const fn = this.client[method] as unknown as UnaryMethod<ReqOf<M>, ResOf<M>>;
      const started = performance.now();
      const callback = (err: grpc.ServiceError | null, res?: ResOf<M>) => {
        opts.signal?.removeEventListener('abort', onAbort);
        const seconds = (performance.now() - started) / 1000;
        if (err) {
          const e = toStatusError(err);
          if (counted) recordClientRequest(this.config.address, method, answered(err) ? e.code : '<error>', seconds);
          reject(e);
        } else {
          if (counted) recordClientRequest(this.config.address, method, successCode(method), seconds);
          resolve(res as ResOf<M>);
        }
      };
      // Traced: the CLIENT span starts here and writes its own traceparent
      // (the interceptor stands aside; a unary call is most of the traced calls).
      // Untraced, foreign interceptors (no tracing of ours) still find the caller's context active.
      const call = this.tracing
        ? callTracedUnary(this.tracing, this.client, fn, req, this.baseMetadataOnly(), callOpts, this.parentContext(opts), callback)
        : this.inTraceContext(opts, () => fn.call(this.client, req, this.metadata(opts), callOpts, callback));
      const onAbort = () => call.cancel();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private pipeline: CreatePipeline | undefined;

  /**
   * A write but a delete (the object's JSON as its call returns it; empty for
   * a binding): pipelined on the CreateStream when nothing per-call asks
   * otherwise (a signal or a timeout makes it its own call).
   */
  write(write: PipelinedWrite, opts: RequestOptions = {}): Promise<Buffer> {
    const method = writeMethod(write);
    const own = this.config.pipelineWrites === false || opts.signal !== undefined || opts.timeoutMs !== undefined;
    if (own) return this.unaryWrite(write, opts, false);
    const started = performance.now();
    this.pipeline ??= new CreatePipeline({
      open: () => this.client.CreateStream(this.metadata()) as unknown as CreateStreamCall,
      // Once: a 429 is sent again by write()'s own loop.
      single: (one, trace) => this.unaryWrite(one, trace ?? {}, true),
      timeoutMs: this.timeoutMs,
    });
    // The item's trace: the caller's context, or (interceptors set) the active one.
    const active = this.config.interceptors?.length ? otelContext.active() : undefined;
    const given = this.parentContext(opts);
    const parent = given && hasSpanContext(given) ? given : active && hasSpanContext(active) ? active : undefined;
    let trace: ItemTrace | undefined;
    let done: ((outcome: RpcOutcome) => void) | undefined;
    if (parent) {
      if (this.tracing) {
        // The item's CLIENT span, as its own call would get; its traceparent goes with the item.
        const md = new grpc.Metadata();
        done = startClientRpc(this.tracing, `${SERVICE_PATH}/${method}`, md, {}, parent);
        trace = itemTrace(md.get('traceparent')[0], md.get('tracestate')[0]);
      } else {
        const m = injectToMap(parent);
        trace = itemTrace(m.traceparent, m.tracestate);
      }
    }
    const pipeline = this.pipeline;
    // Refused unprocessed (API Priority and Fairness): sent again after Retry-After, as its own call is.
    const retry = async (err: unknown): Promise<Buffer> => {
      for (let attempt = 1; ; attempt++) {
        const wait = retryAfterSeconds(err);
        if (wait === undefined || attempt >= MAX_RETRY_AFTER_ATTEMPTS) throw err;
        await this.clock.sleep(wait * 1000);
        try {
          return await pipeline.write(write, trace);
        } catch (next) {
          err = next;
        }
      }
    };
    // The first attempt without a retry loop around it: nearly every write is answered at once.
    return pipeline
      .write(write, trace)
      .catch(retry)
      .then(
        (json) => {
          done?.(null);
          recordClientRequest(this.config.address, method, successCode(method), (performance.now() - started) / 1000);
          return json;
        },
        (err: unknown) => {
          done?.(err as RpcOutcome);
          recordClientRequest(this.config.address, method, answered(err) ? toStatusError(err).code : '<error>', (performance.now() - started) / 1000);
          throw err;
        },
      );
  }

  /** A write as its own unary call (`once`: without the 429 retries, which write() makes, and counted by write()). */
  private unaryWrite(w: PipelinedWrite, opts: RequestOptions, once: boolean): Promise<Buffer> {
    const call = <M extends Unary>(method: M, req: ReqOf<M>) => (once ? this.unaryOnce(method, req, opts, false) : this.unary(method, req, opts));
    if ('request' in w) return call('Create', w.request).then((r) => r.json);
    if ('bind' in w) return call('Bind', w.bind).then(() => EMPTY);
    if ('update' in w) return call('Update', w.update).then((r) => r.json);
    if ('updateStatus' in w) return call('UpdateStatus', w.updateStatus).then((r) => r.json);
    if ('patch' in w) return call('Patch', w.patch).then((r) => r.json);
    return call('CreateToken', w.createToken).then((r) => r.json);
  }

  /** A read retried with backoff while the apiserver is unavailable (safe: idempotent). */
  async read<M extends 'Get' | 'List'>(method: M, req: ReqOf<M>, opts: RequestOptions = {}): Promise<ResOf<M>> {
    const backoff = new Backoff({ initialMs: this.retry.initialMs, maxMs: this.retry.maxMs, factor: 2, jitter: 0.1 }, this.clock);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.unary(method, req, opts);
      } catch (err) {
        if (!isUnavailable(err) || attempt >= this.retry.attempts || opts.signal?.aborted) throw err;
        await this.clock.sleep(backoff.next(), opts.signal);
      }
    }
  }

  /** Opens a server stream (watch); the caller owns cancellation. Counted once the apiserver answers (its headers), or fails. */
  watch(req: Parameters<ResourceServiceClient['Watch']>[0], opts: RequestOptions = {}): grpc.ClientReadableStream<{ type: string; object: Buffer }> {
    const call = this.inTraceContext(opts, () => this.client.Watch(req, this.metadata(opts)));
    const started = performance.now();
    let counted = false;
    const count = (code: number | '<error>') => {
      if (counted) return;
      counted = true;
      recordClientRequest(this.config.address, 'Watch', code, (performance.now() - started) / 1000);
    };
    call.once('metadata', () => count(200));
    call.once('error', (err: unknown) => count(answered(err) ? toStatusError(err).code : '<error>'));
    return call;
  }

  /** The channel's connectivity, for readiness reporting. */
  state(): grpc.connectivityState {
    return this.client.getChannel().getConnectivityState(false);
  }

  close(): void {
    this.pipeline?.close();
    this.client.close();
  }
}

/** The apiserver answered (a status came back), as opposed to no connection or a cancelled call. */
function answered(err: unknown): boolean {
  const code = grpcCodeOf(err);
  return code !== undefined && code !== grpc.status.UNAVAILABLE && code !== grpc.status.CANCELLED && code !== grpc.status.DEADLINE_EXCEEDED;
}

function traceCarrier(opts: RequestOptions): Record<string, string> {
  return { traceparent: opts.traceparent!, ...(opts.tracestate ? { tracestate: opts.tracestate } : {}) };
}

function abortError(method: string): Error {
  return Object.assign(new Error(`${method} cancelled by caller`), {
    code: grpc.status.CANCELLED,
    details: `${method} cancelled by caller`,
    metadata: new grpc.Metadata(),
  });
}
