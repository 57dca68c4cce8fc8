// The component API (proto kubelab.apiserver.v1.ResourceService) over the
// same Registry the REST API uses. Objects travel as their stored JSON:
// requests are parsed once, responses are the cache's bytes when possible.

import * as grpc from '@grpc/grpc-js';
import { apiserverProto, type ResourceServiceHandlers } from '@kubelab/proto';
import {
  apiVersionOf,
  badRequest,
  StatusError,
  unsupportedMediaType,
  type DeleteOptions,
  type KubeObject,
} from '@kubelab/api';
import type { PatchType, Registry, RequestContext, ResourceStore, Subresource } from '../registry/interface.js';
import { rawJson, rawText } from '../cache/raw.js';
import { statusToGrpc } from '@kubelab/proto';
import { traceServerHandlers, type Tracing } from '@kubelab/tracing';

interface Gvr {
  group?: string;
  version?: string;
  resource?: string;
}

const PATCH_TYPES = new Set<string>([
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
]);

function notServed(g: Gvr): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    code: 404,
    reason: 'NotFound',
    message: `the server could not find the requested resource (resource: "${g.resource}" in group "${g.group}" version "${g.version}" is not served)`,
    details: { kind: g.resource ?? '', ...(g.group ? { group: g.group } : {}) },
  });
}

function resolve(registry: Registry, g: Gvr | null | undefined): ResourceStore {
  if (!g || !g.resource) throw badRequest('resource.resource: Required value: which resource (e.g. "pods")');
  const version = g.version || 'v1';
  const s = registry.store(g.group ?? '', version, g.resource);
  if (!s) throw notServed({ group: g.group ?? '', version, resource: g.resource });
  return s;
}

/** Parses a JSON bytes field, naming the field in the error. */
export function parseJsonField(field: string, bytes: Buffer | Uint8Array | undefined, opts: { optional?: boolean } = {}): unknown {
  if (!bytes || bytes.length === 0) {
    if (opts.optional) return undefined;
    throw badRequest(`${field}: Required value: the request carries no JSON`);
  }
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (e) {
    throw badRequest(`${field}: invalid JSON: ${(e as Error).message}`);
  }
  return v;
}

function objectField(field: string, bytes: Buffer | undefined): KubeObject {
  const v = parseJsonField(field, bytes);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw badRequest(`${field}: Invalid value: must be a JSON object, got ${Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v}`);
  }
  const o = v as KubeObject;
  if (o.metadata !== undefined && (typeof o.metadata !== 'object' || o.metadata === null || Array.isArray(o.metadata))) {
    throw badRequest(`${field}.metadata: Invalid value: must be a JSON object`);
  }
  const m = o.metadata as unknown as Record<string, unknown> | undefined;
  for (const f of ['name', 'generateName', 'namespace', 'resourceVersion', 'uid'] as const) {
    if (m && m[f] !== undefined && typeof m[f] !== 'string') {
      throw badRequest(`${field}.metadata.${f}: Invalid value: must be a string, got ${typeof m[f]}`);
    }
  }
  return o;
}

function context(dryRun: string | undefined, fieldManager: string | undefined): RequestContext {
  if (dryRun && dryRun !== 'All') throw badRequest(`dryRun: Unsupported value: "${dryRun}": supported values: "All"`);
  const ctx: RequestContext = {};
  if (dryRun === 'All') ctx.dryRun = true;
  if (fieldManager) ctx.fieldManager = fieldManager;
  return ctx;
}

function requireName(name: string | undefined): string {
  if (!name) throw badRequest('name: Required value: the object name');
  if (name.includes('/') || name === '.' || name === '..' || name.includes('%')) {
    throw badRequest(`name: Invalid value: "${name}": may not contain '/' or '%' or be '.' or '..'`);
  }
  return name;
}

function int64(v: string | number | undefined, field: string): number {
  const n = Number(v ?? 0);
  if (!Number.isSafeInteger(n) || n < 0) throw badRequest(`${field}: Invalid value: ${String(v)}: must be a non-negative integer`);
  return n;
}

/** Encodes a list from its items' stored JSON (no re-serialization of items). */
export function listJson(list: { apiVersion?: string; kind?: string; metadata: object; items: KubeObject[] }): Buffer {
  const parts: string[] = new Array(list.items.length);
  for (let i = 0; i < list.items.length; i++) parts[i] = rawText(list.items[i]!);
  return Buffer.from(
    `{"apiVersion":${JSON.stringify(list.apiVersion)},"kind":${JSON.stringify(list.kind)},"metadata":${JSON.stringify(list.metadata)},"items":[${parts.join(',')}]}`,
  );
}

type Unary<Req, Res> = (call: grpc.ServerUnaryCall<Req, Res>, cb: grpc.sendUnaryData<Res>) => void;

function unary<Req, Res>(f: (req: Req) => Promise<Res>, onError?: (e: unknown) => void): Unary<Req, Res> {
  return (call, cb) => {
    let p: Promise<Res>;
    try {
      p = f(call.request);
    } catch (e) {
      p = Promise.reject(e);
    }
    p.then(
      (res) => cb(null, res),
      (err) => {
        onError?.(err);
        let e: ReturnType<typeof statusToGrpc>;
        try {
          e = statusToGrpc(err);
        } catch (mapErr) {
          e = statusToGrpc(new Error(`could not encode the error status: ${(mapErr as Error).message}`));
        }
        cb(e);
      },
    );
  };
}

export interface GrpcServerOptions {
  registry: Registry;
  /** Logged for unexpected (500) failures only. */
  onInternalError?: (err: unknown) => void;
  /** Each RPC runs in a SERVER span named like it (`kubelab.apiserver.v1.ResourceService/Create`), continuing the caller's traceparent. */
  tracing?: Tracing;
}

export function resourceServiceHandlers(opts: GrpcServerOptions): ResourceServiceHandlers {
  const { registry } = opts;
  const onError = (err: unknown) => {
    if (!StatusError.isInstance(err) || err.code >= 500) opts.onInternalError?.(err);
  };
  return {
    Get: unary(async (req) => {
      const s = resolve(registry, req.resource);
      const obj = await s.get(req.namespace || undefined, requireName(req.name), { resourceVersion: req.resourceVersion });
      return { json: rawJson(obj) };
    }, onError),

    List: unary(async (req) => {
      const s = resolve(registry, req.resource);
      const list = await s.list({
        namespace: req.namespace,
        labelSelector: req.labelSelector,
        fieldSelector: req.fieldSelector,
        resourceVersion: req.resourceVersion,
        limit: int64(req.limit, 'limit'),
        continue: req.continue,
      });
      return { json: listJson(list) };
    }, onError),

    Watch: (call) => {
      let stopWatch: (() => void) | undefined;
      let done = false;
      const finish = (err?: unknown) => {
        if (done) return;
        done = true;
        stopWatch?.();
        if (err !== undefined) {
          onError(err);
          call.emit('error', statusToGrpc(err));
        } else call.end();
      };
      call.on('cancelled', () => {
        done = true;
        stopWatch?.();
      });
      call.on('error', () => finish());
      void (async () => {
        try {
          const req = call.request;
          const s = resolve(registry, req.resource);
          const timeoutSeconds = int64(req.timeoutSeconds, 'timeoutSeconds');
          const w = s.watch({
            namespace: req.namespace,
            labelSelector: req.labelSelector,
            fieldSelector: req.fieldSelector,
            resourceVersion: req.resourceVersion,
            allowWatchBookmarks: req.allowWatchBookmarks,
            timeoutSeconds,
          });
          stopWatch = () => w.stop();
          if (done) return w.stop();
          const write = async (msg: { type: string; object?: Buffer; batch?: Array<{ type: string; object: Buffer }> }) => {
            if (!call.write(msg) && !done) await new Promise<void>((r) => call.once('drain', () => r()));
          };
          if (w.nextBatch) {
            // Whatever queued since the last write goes out together (one message with allow_batch).
            for (;;) {
              const evs = await w.nextBatch();
              if (evs.length === 0 || done) break;
              if (req.allowBatch && evs.length > 1) {
                await write({ type: '', batch: evs.map((ev) => ({ type: ev.type, object: rawJson(ev.object) })) });
              } else for (const ev of evs) await write({ type: ev.type, object: rawJson(ev.object) });
            }
          } else {
            for await (const ev of w.events) {
              if (done) break;
              await write({ type: ev.type, object: rawJson(ev.object) });
            }
          }
          finish();
        } catch (err) {
          finish(err);
        }
      })();
    },

    Create: unary(async (req) => {
      const s = resolve(registry, req.resource);
      const obj = objectField('object', req.object);
      const created = await s.create(req.namespace || undefined, obj, context(req.dryRun, req.fieldManager));
      return { json: rawJson(created) };
    }, onError),

    Update: unary(async (req) => {
      const s = resolve(registry, req.resource);
      const obj = objectField('object', req.object);
      const out = await s.update(req.namespace || undefined, requireName(req.name), obj, context(req.dryRun, req.fieldManager));
      return { json: rawJson(out) };
    }, onError),

    UpdateStatus: unary(async (req) => {
      const s = resolve(registry, req.resource);
      if (!s.info.subresources.includes('status')) throw notServed({ group: s.info.group, version: s.info.version, resource: `${s.info.resource}/status` });
      const obj = objectField('object', req.object);
      const out = await s.update(req.namespace || undefined, requireName(req.name), obj, context(req.dryRun, req.fieldManager), 'status');
      return { json: rawJson(out) };
    }, onError),

    Patch: unary(async (req) => {
      const s = resolve(registry, req.resource);
      if (!PATCH_TYPES.has(req.patchType)) throw unsupportedMediaType(req.patchType || '(empty patch_type)');
      let sub: Subresource;
      if (req.subresource === 'status' || req.subresource === 'finalize') {
        if (!s.info.subresources.includes(req.subresource)) throw notServed({ group: s.info.group, version: s.info.version, resource: `${s.info.resource}/${req.subresource}` });
        sub = req.subresource;
      } else if (req.subresource) throw badRequest(`subresource: Unsupported value: "${req.subresource}": supported values: "", "status", "finalize"`);
      const patch = parseJsonField('patch', req.patch);
      const out = await s.patch(req.namespace || undefined, requireName(req.name), req.patchType as PatchType, patch, context(req.dryRun, req.fieldManager), sub);
      return { json: rawJson(out) };
    }, onError),

    Delete: unary(async (req) => {
      const s = resolve(registry, req.resource);
      const raw = parseJsonField('options', req.options, { optional: true });
      if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
        throw badRequest('options: Invalid value: must be a JSON DeleteOptions object');
      }
      const options = (raw ?? {}) as DeleteOptions;
      if (options.gracePeriodSeconds !== undefined && typeof options.gracePeriodSeconds !== 'number') {
        throw badRequest(`options.gracePeriodSeconds: Invalid value: must be an integer, got ${typeof options.gracePeriodSeconds}`);
      }
      const dry = Array.isArray(options.dryRun) && options.dryRun.includes('All') ? 'All' : undefined;
      const res = await s.delete(req.namespace || undefined, requireName(req.name), options, context(dry, undefined));
      return { object: rawJson(res.object), deleted: res.deleted };
    }, onError),

    Bind: unary(async (req) => {
      if (!req.namespace) throw badRequest('namespace: Required value: the pod\'s namespace');
      const binding = objectField('binding', req.binding);
      await registry.bind(req.namespace, binding, {});
      return {};
    }, onError),
  };
}

export interface RunningGrpcServer {
  server: grpc.Server;
  port: number;
  stop(): Promise<void>;
}

/** Serves ResourceService on host:port (0 = a free port). */
export async function startGrpcServer(host: string, port: number, opts: GrpcServerOptions): Promise<RunningGrpcServer> {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': 8 * 1024 * 1024,
    'grpc.max_send_message_length': -1,
  });
  const proto = apiserverProto();
  const service = proto.kubelab.apiserver.v1.ResourceService.service;
  const handlers = resourceServiceHandlers(opts) as unknown as grpc.UntypedServiceImplementation;
  server.addService(service, opts.tracing ? traceServerHandlers(opts.tracing, service, handlers) : handlers);
  const bound = await new Promise<number>((resolvePort, reject) => {
    server.bindAsync(`${host.includes(':') ? `[${host}]` : host}:${port}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolvePort(p)));
  });
  // grpc-js leaves Nagle on for server sockets; small responses then wait
  // for the peer's delayed ACK (~40 ms). Every gRPC server in C/Go disables it.
  const h2 = (server as unknown as { http2Servers?: Map<import('node:net').Server, unknown> }).http2Servers;
  for (const s of h2?.keys() ?? []) s.on('connection', (sock: import('node:net').Socket) => sock.setNoDelay(true));
  return {
    server,
    port: bound,
    stop: () =>
      new Promise<void>((r) => {
        const t = setTimeout(() => {
          server.forceShutdown();
          r();
        }, 2_000);
        t.unref?.();
        server.tryShutdown(() => {
          clearTimeout(t);
          r();
        });
      }),
  };
}

