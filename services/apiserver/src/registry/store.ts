// The generic store for one resource (upstream: registry/generic/registry.Store):
// server-managed metadata, defaulting, admission, validation and the
// compare-and-swap write against NATS KV; reads come from the watch cache.

import {
  alreadyExists,
  apiVersionOf,
  badRequest,
  conflict,
  expired,
  internalError,
  invalid,
  notFound,
  OPTIMISTIC_LOCK_MESSAGE,
  requestEntityTooLarge,
  storageKey,
  storagePrefix,
  StatusError,
  timeout,
  type CustomResourceDefinition,
  type DeleteOptions,
  type KubeList,
  type KubeObject,
  type ResourceInfo,
} from '@kubelab/api';
import type { ApiWriteRecord, ApiWriteVerb } from '@kubelab/proto/api-record';
import { componentOfUserAgent } from '@kubelab/proto/api-record';
import { extractFromMap, parseTraceparent, ROOT_CONTEXT, trace, TRACED_RESOURCES, TRACEPARENT_ANNOTATION, withObjectTraceparent, withTraceContextAnnotation } from '@kubelab/tracing';
import { CLEANUP_FINALIZER, isCrdResource, markTerminating } from '../apiextensions/crd.js';
import type { AdmissionChain } from '../admission/chain.js';
import { admissionAttributes, AdmissionHooks, type AdmissionAttributes, type Operation } from '../admission/types.js';
import { watchTrigger, type WatchTrigger } from '../cache/triggers.js';
import type { CacheEntry, WatchCache } from '../cache/watch-cache.js';
import type { CacheWatcher } from '../cache/watcher.js';
import { parseResourceVersion } from '../cache/watch-cache.js';
import { attachRaw, rawText } from '../cache/raw.js';
import { revisionOffset, spliceRevision, storageString, storesAs } from '../storage/codec.js';
import { StorageError, type KvStorage } from '../storage/kv.js';
import type { ResourceTransformers } from '../storage/encryption/load.js';
import type { Transformer } from '../storage/encryption/transformer.js';
import { checkPatchedTypes } from '../decoding/decode.js';
import { applyPatch, compileSelectors, setDefaults, validateObject, type ObjectPredicate } from './api-hooks.js';
import { invalidListOptions, listOptionsErrors, watchOptionsErrors } from './list-options.js';
import type { CustomStrategy, DeleteResult, ListOptions, PatchType, RequestContext, ResourceStore, Subresource, Watch, WatchOptions, WriteCheck } from './interface.js';
import { generateName, newUid, nowTime } from './meta.js';
import { KeyQueue } from './key-queue.js';
import type { ResourceStorageMetrics, StorageMetrics, StorageOperation } from '../storage/metrics.js';
import { allowsUnconditionalUpdate, gracePeriodSeconds, isNamespaces, pendingFinalizers, prepareForCreate, prepareForUpdate, shouldDeleteDuringUpdate, validateOnServer } from './strategy.js';
import { FieldManager, managerName, type Writer } from './fieldmanager/index.js';

/** etcd's default request size limit (--max-request-bytes 1.5 MiB). */
export const MAX_OBJECT_BYTES = 1.5 * 1024 * 1024;

export interface StoreDeps {
  storage: KvStorage;
  cache: WatchCache;
  admission: AdmissionChain;
  /** Largest object the store accepts (min of etcd's limit and NATS max_payload). */
  maxObjectBytes: number;
  /** Times the storage calls (etcd_request_duration_seconds and its counters). */
  storageMetrics?: StorageMetrics;
  /** Records requests for metrics (apiserver_request_total, _duration_seconds, apiserver_longrunning_requests). */
  requestMetrics?: RequestRecorder;
  /**
   * Tracing is on: a create inside a sampled request span records its trace
   * context in the `kubelab.io/traceparent` annotation (off: not even looked at).
   */
  recordTraceContext?: boolean;
  /** Each answered write request (create, update, patch, delete, binding), as `kubelab trace --all-components` shows it. */
  onWrite?: (rec: ApiWriteRecord) => void;
  /** Whether anyone reads the write records now (unset: always); asked per write before any record is built. */
  wantWriteRecords?: () => boolean;
  /** --encryption-provider-config: resources it names are stored encrypted (the watch cache decrypts them). */
  transformers?: ResourceTransformers;
  /** Checks of writes by `group/resource` (RBAC's escalation prevention). */
  writeChecks?: ReadonlyMap<string, WriteCheck>;
}

/** One finished request, with upstream's request metric labels. */
export interface RequestObservation {
  /** Upstream's canonical verb: GET, LIST, POST, PUT, PATCH, APPLY, DELETE. */
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  /** `resource` (a named object), `namespace` or `cluster`. */
  scope: 'resource' | 'namespace' | 'cluster';
  dryRun: boolean;
  code: number;
  seconds: number;
}

/** A long-running request (WATCH, CONNECT) while it lasts; `end` counts it with its code. */
export interface LongRunningRequest {
  end(code: number): void;
  /** It turned out not to be one (left to another layer to count): out of the gauge, not counted. */
  cancel(): void;
}

/** Where requests are counted: finished ones, and long-running ones from their start. */
export interface RequestRecorder {
  observe(r: RequestObservation): void;
  start(l: Omit<RequestObservation, 'code' | 'seconds' | 'dryRun'>): LongRunningRequest;
}

type RequestLabels = Pick<RequestObservation, 'verb' | 'subresource' | 'scope'> & { dryRun?: boolean };

/** What a write record needs besides the labels: who asked, and the object when the request named it. */
interface WriteOf {
  ctx: RequestContext;
  namespace?: string | undefined;
  name?: string | undefined;
}

let lastWall = 0;
let lastIso = '';

/** RFC 3339 text of a wall-clock millisecond, made once per millisecond (the writes started in one share it). */
function isoTime(ms: number): string {
  if (ms !== lastWall) {
    lastWall = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/** Metric verbs → audit verbs (a server-side apply is audited as a patch; pods/binding is a create). */
const WRITE_VERBS: Record<string, ApiWriteVerb> = { POST: 'create', PUT: 'update', PATCH: 'patch', APPLY: 'patch', DELETE: 'delete' };

/** The object a write answered with: the object itself, or a delete's result holding one. */
function resultObject(r: unknown): KubeObject | undefined {
  if (!r || typeof r !== 'object') return undefined;
  const o = r as { metadata?: unknown; object?: unknown };
  if (o.metadata && typeof o.metadata === 'object') return r as KubeObject;
  if (o.object && typeof o.object === 'object' && (o.object as { metadata?: unknown }).metadata) return o.object as KubeObject;
  return undefined;
}

export type Obj = KubeObject & Record<string, unknown> & { spec?: Record<string, unknown>; status?: Record<string, unknown> };

const MAX_RETRIES = 16;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A mutable deep copy of a cached (frozen) object: one parse of its JSON. */
function thaw(o: KubeObject): Obj {
  return JSON.parse(rawText(o)) as Obj;
}

/** An object as stored: its bytes, and the byte offset its revision is spliced in at (-1: nowhere known). */
interface Encoded {
  bytes: Buffer;
  at: number;
}

export class GenericStore implements ResourceStore {
  readonly prefix: string;
  /** How this resource is stored (upstream: the etcd3 store's transformer); undefined: as is. */
  private readonly transformer: Transformer | undefined;
  private readonly writeCheck: WriteCheck | undefined;
  private readonly writers = new KeyQueue();
  /** This resource's etcd_request_* series (deps.storageMetrics), looked up once per operation. */
  private readonly storageMetrics: ResourceStorageMetrics | undefined;
  /** metadata.managedFields and server-side apply (upstream: the store's FieldManager, run by the handlers). */
  private readonly fields: FieldManager;

  constructor(
    readonly info: ResourceInfo,
    private readonly deps: StoreDeps,
    /** A custom resource's strategy (absent for built-in kinds). */
    readonly custom?: CustomStrategy,
  ) {
    this.prefix = storagePrefix(info);
    this.transformer = deps.transformers?.forResource(info);
    this.writeCheck = deps.writeChecks?.get(`${info.group}/${info.resource}`);
    this.storageMetrics = deps.storageMetrics?.forResource(info.group, info.resource);
    this.fields = new FieldManager(info);
  }

  /** Who a write is attributed to: the fieldManager, else the User-Agent's first word. */
  private writer(ctx: RequestContext, subresource?: string): Writer {
    return { manager: managerName(ctx.fieldManager, ctx.userAgent), subresource };
  }

  /** The bytes written to NATS: encrypted when configured, the key as authenticated data. */
  private toStorage(key: string, bytes: Uint8Array): Uint8Array {
    return this.transformer ? this.transformer.toStorage(bytes, key) : bytes;
  }

  private key(namespace: string | undefined, name: string): string {
    return storageKey(this.info, namespace, name);
  }

  /** Runs a request's work, counted (and its write recorded) when it ends: one reaction on its promise, no frame of its own. */
  private timed<T>(labels: RequestLabels, f: () => Promise<T>, okCode = 200, write?: WriteOf): Promise<T> {
    const start = performance.now();
    const wall = write && this.deps.onWrite && (this.deps.wantWriteRecords?.() ?? true) ? Date.now() : 0;
    let work: Promise<T>;
    try {
      work = f();
    } catch (err) {
      work = Promise.reject(err as Error);
    }
    return work.then(
      (r) => {
        this.record(labels, okCode, start);
        if (wall) this.recordWrite(labels, write!, okCode, start, wall, r);
        return r;
      },
      (err: unknown) => {
        const e = toStatusError(err);
        this.record(labels, e.code, start);
        if (wall) this.recordWrite(labels, write!, e.code, start, wall, undefined);
        throw e;
      },
    );
  }

  /** The write record of an answered request (deps.onWrite); never fails the request. */
  private recordWrite(l: RequestLabels, w: WriteOf, code: number, start: number, wall: number, result: unknown): void {
    try {
      const info = this.info;
      const obj = resultObject(result);
      const name = obj?.metadata?.name ?? w.name;
      const namespace = obj?.metadata?.namespace ?? w.namespace;
      const tp = obj?.metadata?.annotations?.[TRACEPARENT_ANNOTATION];
      const fromObject = typeof tp === 'string' ? parseTraceparent(tp) : undefined;
      const sc = w.ctx.traceContext ? trace.getSpanContext(w.ctx.traceContext) : undefined;
      const traceId = fromObject?.traceId ?? sc?.traceId;
      const spanId = fromObject?.spanId ?? sc?.spanId;
      const component = componentOfUserAgent(w.ctx.userAgent);
      // Field by field (no spread objects per write), in the record's key order.
      const rec = {} as ApiWriteRecord;
      rec.time = isoTime(wall);
      rec.verb = WRITE_VERBS[l.verb] ?? (l.verb.toLowerCase() as ApiWriteVerb);
      if (l.verb === 'APPLY') rec.operation = 'apply';
      rec.group = info.group;
      rec.version = info.version;
      rec.resource = info.resource;
      if (l.subresource) rec.subresource = l.subresource;
      if (namespace) rec.namespace = namespace;
      if (name) rec.name = name;
      rec.user = w.ctx.user?.name ?? 'system:anonymous';
      if (component) rec.component = component;
      rec.code = code;
      rec.durationMs = Math.round((performance.now() - start) * 1000) / 1000;
      if (l.dryRun) rec.dryRun = true;
      if (traceId) rec.traceId = traceId;
      if (spanId) rec.spanId = spanId;
      this.deps.onWrite!(rec);
    } catch {
      // Recording must never fail a write.
    }
  }

  /** A storage call, timed for the storage metrics when they are on. */
  private timedStorage<T>(op: StorageOperation, call: () => Promise<T>): Promise<T> {
    const metrics = this.storageMetrics;
    if (!metrics) return call();
    const start = performance.now();
    return call().then(
      (v) => {
        metrics.record(op, (performance.now() - start) / 1000, false);
        return v;
      },
      (err: unknown) => {
        metrics.record(op, (performance.now() - start) / 1000, true);
        throw err;
      },
    );
  }

  /** One finished request for the metrics (a flat literal: this runs for every request). */
  private record(l: RequestLabels, code: number, start: number): void {
    const metrics = this.deps.requestMetrics;
    if (!metrics) return;
    const info = this.info;
    metrics.observe({
      verb: l.verb,
      group: info.group,
      version: info.version,
      resource: info.resource,
      subresource: l.subresource,
      scope: l.scope,
      dryRun: l.dryRun === true,
      code,
      seconds: (performance.now() - start) / 1000,
    });
  }

  /** Upstream's scope label for a request without an object name. */
  private collectionScope(namespace: string | undefined): 'namespace' | 'cluster' {
    return this.info.namespaced && namespace ? 'namespace' : 'cluster';
  }

  // ---- reads -------------------------------------------------------------

  private checkNamespace(namespace: string | undefined): string {
    if (this.info.namespaced) {
      if (!namespace) throw badRequest(`namespace is required for ${this.info.resource}`);
      return namespace;
    }
    return '';
  }

  private async waitFor(resourceVersion: string | undefined): Promise<void> {
    if (resourceVersion === '0') {
      if (!this.deps.cache.isSynced) await this.deps.cache.synced;
      return;
    }
    if (resourceVersion === undefined || resourceVersion === '') return this.deps.cache.waitConsistent();
    const rv = parseResourceVersion(resourceVersion);
    if (!this.deps.cache.isSynced) await this.deps.cache.synced;
    await this.deps.cache.waitForRev(rv);
  }

  get(namespace: string | undefined, name: string, opts: { resourceVersion?: string } = {}): Promise<KubeObject> {
    return this.timed({ verb: 'GET', subresource: '', scope: 'resource' }, () => this.read(namespace, name, opts));
  }

  /**
   * A read inside another request (upstream's registry Getter, e.g.
   * TokenRequest looking up its ServiceAccount and pod): the same answer as
   * get, but not a request of its own in apiserver_request_total.
   */
  async read(namespace: string | undefined, name: string, opts: { resourceVersion?: string } = {}): Promise<KubeObject> {
    const ns = this.checkNamespace(namespace);
    if (!name) throw badRequest('name is required');
    const key = this.key(ns, name);
    // Upstream's cacher hands a GET without a resourceVersion to etcd. Here the cache answers once it holds this
    // apiserver's writes, and the storage's leader when it does not catch up in time (its watch being re-established
    // after a NATS server went), rather than a Timeout the storage would not give.
    if ((opts.resourceVersion ?? '') !== '') await this.waitFor(opts.resourceVersion);
    else if (!(await this.deps.cache.caughtUp())) {
      const stored = await this.timedStorage('get', () => this.deps.storage.get(key));
      if (!stored) throw notFound(this.info, name);
      return this.deps.cache.decodeStored(key, stored.value, stored.revision);
    }
    const e = this.deps.cache.get(key);
    if (!e) throw notFound(this.info, name);
    return e.obj;
  }

  /** apiVersion and kind, for the field label conversions. */
  private get kindRef(): { apiVersion: string; kind: string } {
    return { apiVersion: apiVersionOf(this.info), kind: this.info.kind };
  }

  /** The trigger value a selector pins (a kubelet's spec.nodeName=<node>): lists read the cache's index, watches are indexed by it. */
  private pinnedTrigger(predicate: ObjectPredicate | undefined, fieldSelector: string | undefined): WatchTrigger | undefined {
    return predicate && !this.custom ? watchTrigger(this.info, fieldSelector) : undefined;
  }

  list(opts: ListOptions): Promise<KubeList> {
    return this.timed({ verb: 'LIST', subresource: '', scope: this.collectionScope(opts.namespace) }, async () => {
      const errs = listOptionsErrors(opts);
      if (errs.length > 0) throw invalidListOptions(errs);
      const ns = this.info.namespaced ? opts.namespace || undefined : undefined;
      const pred = compileSelectors(opts.labelSelector, opts.fieldSelector, this.kindRef);
      const cache = this.deps.cache;
      let start: string | undefined;
      let entries: CacheEntry[];
      let listRv: number;
      const exact = exactRevision(opts);
      if (opts.continue) {
        const token = decodeContinue(opts.continue);
        start = token.start;
        if (token.rv > 0) {
          // Every page is the first page's snapshot (upstream: the list at the token's revision).
          if (!cache.isSynced) await cache.synced;
          const snapshot = cache.listAt(this.prefix, token.rv, ns);
          if (!snapshot) throw inconsistentContinue(token.start);
          entries = snapshot;
          listRv = token.rv;
        } else {
          // rv -1: the remainder at the newest state, as the inconsistent token offered.
          await cache.waitConsistent();
          entries = cache.list(this.prefix, ns);
          listRv = cache.rev;
        }
      } else if (exact !== undefined) {
        await this.waitFor(String(exact));
        const snapshot = cache.listAt(this.prefix, exact, ns);
        if (!snapshot) throw expired('The resourceVersion for the provided list is too old.');
        entries = snapshot;
        listRv = exact;
      } else {
        await this.waitFor(opts.resourceVersion);
        // A selector pinning the trigger field (a kubelet's spec.nodeName=<node>) reads the index, not every object.
        const trigger = this.pinnedTrigger(pred, opts.fieldSelector);
        entries = (trigger && cache.listByTrigger(this.prefix, trigger.value, ns)) || cache.list(this.prefix, ns);
        listRv = cache.rev;
      }
      const items: KubeObject[] = [];
      const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
      const metadata: KubeList['metadata'] = { resourceVersion: String(listRv) };
      let i = start ? lowerBoundEntries(entries, start) : 0;
      for (; i < entries.length; i++) {
        const e = entries[i]!;
        if (pred && !pred(e.obj)) continue;
        if (items.length >= limit) {
          metadata.continue = encodeContinue(String(listRv), keyOf(items[items.length - 1]!, this) + '\u0000');
          // Known only without a selector (upstream counts the keys left in the range).
          if (!pred) metadata.remainingItemCount = entries.length - i;
          break;
        }
        items.push(e.obj);
      }
      return { apiVersion: apiVersionOf(this.info), kind: this.info.listKind, metadata, items };
    });
  }

  watch(opts: WatchOptions): Watch {
    const ns = this.info.namespaced ? opts.namespace || undefined : undefined;
    const labels = { verb: 'WATCH', subresource: '', scope: this.collectionScope(ns) } as const;
    let predicate: ReturnType<typeof compileSelectors>;
    let trigger: WatchTrigger | undefined;
    const rv = opts.resourceVersion;
    try {
      const errs = watchOptionsErrors(opts);
      if (errs.length > 0) throw invalidListOptions(errs);
      predicate = compileSelectors(opts.labelSelector, opts.fieldSelector, this.kindRef);
      trigger = this.pinnedTrigger(predicate, opts.fieldSelector);
      parseResourceVersion(rv);
    } catch (err) {
      const e = toStatusError(err);
      this.record(labels, e.code, performance.now());
      throw e;
    }
    // Counted when it ends, as upstream's WATCH (200: the stream was served), and in the long-running gauge meanwhile.
    const running = this.deps.requestMetrics?.start({ ...labels, group: this.info.group, version: this.info.version, resource: this.info.resource });
    const sendInitialEvents = opts.sendInitialEvents;
    const cache = this.deps.cache;
    let stopped = false;
    let inner: CacheWatcher | undefined;
    let resolveDone!: () => void;
    const done = new Promise<void>((r) => (resolveDone = r));
    const req = {
      info: this.info,
      prefix: this.prefix,
      ...(ns ? { namespace: ns } : {}),
      ...(predicate ? { predicate } : {}),
      ...(trigger ? { trigger } : {}),
      // A watch-list's resourceVersion is a lower bound for its snapshot, not a point to resume from.
      ...(rv !== undefined && sendInitialEvents !== true ? { resourceVersion: rv } : {}),
      allowWatchBookmarks: opts.allowWatchBookmarks === true,
      // The deadline counts from now, as the handler's timer does, not from a subscription that may wait for the cache.
      ...(opts.timeoutSeconds && opts.timeoutSeconds > 0 ? { timeoutSeconds: opts.timeoutSeconds, deadline: cache.clock() + opts.timeoutSeconds * 1000 } : {}),
      ...(sendInitialEvents !== undefined ? { sendInitialEvents } : {}),
    };
    if (running) void done.then(() => running.end(200));
    const subscribe = () => {
      inner = cache.watch(req);
      void inner.done.then(resolveDone);
    };
    // A numbered resourceVersion subscribes now (nothing may be missed); "" waits
    // for a consistent cache first (upstream: a watch from "most recent"); a
    // watch-list waits until the cache is at least as new as its resourceVersion.
    if (rv && rv !== '0' && sendInitialEvents !== true) subscribe();
    let started: Promise<void> | undefined;
    const start = () =>
      (started ??= (async () => {
        if (inner) return;
        if (rv === '0') await cache.synced;
        else if (rv && sendInitialEvents === true) await this.waitFor(rv);
        else await cache.waitConsistent();
        if (!stopped) subscribe();
      })());
    const events = (async function* () {
      await start();
      if (inner) yield* inner.events;
    })();
    return {
      events,
      done,
      async nextBatch() {
        await start();
        return inner && !stopped ? inner.nextBatch() : [];
      },
      stop() {
        stopped = true;
        inner?.stop();
        resolveDone();
        void events.return(undefined);
      },
    };
  }

  // ---- writes ------------------------------------------------------------

  private attrs(op: Operation, ns: string, name: string, ctx: RequestContext, hooks: AdmissionHooks, object?: KubeObject, oldObject?: KubeObject, subresource?: string): AdmissionAttributes {
    return admissionAttributes(op, this.info, ns, name, ctx, hooks, object, oldObject, subresource);
  }

  /** Checks the body is an object of this resource and settles its namespace. */
  private checkBody(body: unknown, ns: string): Obj {
    if (!isObject(body)) throw badRequest(`the body of the request must be a JSON object (${this.info.kind})`);
    const o = body as Obj;
    if (o.metadata === undefined || o.metadata === null) o.metadata = {};
    if (!isObject(o.metadata)) throw badRequest('metadata: must be an object');
    const want = apiVersionOf(this.info);
    if (o.apiVersion !== undefined && o.apiVersion !== want) {
      throw badRequest(`the API version in the data (${String(o.apiVersion)}) does not match the expected API version (${want})`);
    }
    if (o.kind !== undefined && o.kind !== this.info.kind) {
      throw badRequest(`the kind in the data (${String(o.kind)}) does not match the expected kind (${this.info.kind})`);
    }
    o.apiVersion = want;
    o.kind = this.info.kind;
    if (this.info.namespaced) {
      if (o.metadata.namespace && o.metadata.namespace !== ns) {
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      o.metadata.namespace = ns;
    } else delete o.metadata.namespace;
    return o;
  }

  /**
   * The stored bytes and where the revision goes in them, found now so the
   * JSON text is garbage before the write's round trip (a string kept across
   * it survives a young-generation collection per in-flight write).
   */
  private encode(o: Obj): Encoded {
    const text = storageString(o);
    const bytes = Buffer.from(text); // pooled: cheaper than a TextEncoder array per write
    if (bytes.length > this.deps.maxObjectBytes) {
      throw requestEntityTooLarge(
        `Request entity too large: ${this.info.resource} "${o.metadata.name ?? ''}" is ${bytes.length} bytes when stored, over the ${this.deps.maxObjectBytes}-byte object limit (etcdserver: request is too large)`,
      );
    }
    return { bytes, at: revisionOffset(text, o) };
  }

  /**
   * Stamps the revision on a freshly written object, keeps its JSON for the
   * transports and hands it to the watch cache, which serves it from then on
   * (frozen) instead of decoding the KV watch event of this revision.
   * `enc`: what was written at `key` before any encryption;
   * `storedSize`: the length of the value in NATS, which the watch event must match (undefined when the write was a delete marker).
   */
  private committed(o: Obj, enc: Encoded, rev: number, key: string, storedSize: number | undefined): KubeObject {
    const rv = String(rev);
    o.metadata.resourceVersion = rv;
    if (enc.at < 0) {
      this.deps.cache.observeWrite(rev, key);
      return o;
    }
    const wire = spliceRevision(enc.bytes, enc.at, rv);
    if (storedSize !== undefined) this.deps.cache.adoptWrite(key, rev, o, wire, storedSize);
    else {
      attachRaw(o, wire);
      this.deps.cache.observeWrite(rev, key);
    }
    return o;
  }

  private validate(o: Obj, old?: KubeObject, subresource?: string): void {
    const errs = validateObject(o, old, subresource);
    errs.push(...validateOnServer(this.info, o, old as Obj | undefined));
    if (this.custom) errs.push(...this.custom.validate(o, old as Obj | undefined, subresource));
    if (errs.length > 0) throw invalid(this.info.kind, this.info.group, o.metadata.name ?? '', errs);
  }

  create(namespace: string | undefined, body: KubeObject, ctx: RequestContext, operation?: 'Apply'): Promise<KubeObject> {
    return this.timed(
      { verb: operation === 'Apply' ? 'APPLY' : 'POST', subresource: '', scope: this.collectionScope(namespace), dryRun: ctx.dryRun },
      async () => {
        const ns = this.checkNamespace(namespace);
        let o = this.checkBody(body, ns);
        // An apply that creates owns what it applied, not what defaulting adds (upstream: the applied configuration's field set).
        if (operation === 'Apply') this.fields.applyCreate(o, this.writer(ctx), nowTime());
        // Whoever acts on this object later (controllers, scheduler, kubelet) continues the creating request's trace:
        // the kinds of a pod start always carry it (sampled or not, export on or off), others when a sampled span made them.
        if (TRACED_RESOURCES.has(`${this.info.group}/${this.info.resource}`))
          o = withObjectTraceparent(o, ctx.traceContext ?? (ctx.traceparent ? extractFromMap({ traceparent: ctx.traceparent }) : ROOT_CONTEXT));
        else if (this.deps.recordTraceContext) o = withTraceContextAnnotation(o, ctx.traceContext ?? ROOT_CONTEXT);
        const m = o.metadata;
        if (m.resourceVersion) throw badRequest('resourceVersion should not be set on objects to be created');
        if (!m.name && m.generateName) m.name = generateName(m.generateName);
        m.uid = newUid();
        m.creationTimestamp = nowTime();
        delete m.deletionTimestamp;
        delete m.deletionGracePeriodSeconds;
        // Defaulting first, as upstream decodes with defaults before PrepareForCreate (a pod's QoS class reads defaulted requests).
        setDefaults(o);
        prepareForCreate(this.info, o, ctx.user);
        if (this.custom) {
          this.custom.normalize(o);
          this.custom.prepareForCreate(o);
        }
        if (operation !== 'Apply') this.fields.update(undefined, o, this.writer(ctx), nowTime());
        this.writeCheck?.create?.(o, ns, ctx);
        const hooks = new AdmissionHooks();
        const a = this.attrs('CREATE', ns, m.name ?? '', ctx, hooks, o);
        if (!this.deps.cache.isSynced) await this.deps.cache.synced;
        try {
          const review = this.deps.admission.review(a, () => this.validate(o));
          if (review) await review;
          const enc = this.encode(o);
          if (ctx.dryRun) {
            hooks.rollback();
            return o;
          }
          const key = this.key(ns, m.name!);
          const value = this.toStorage(key, enc.bytes);
          // In the key's queue, as updates and deletes: one write of a key in flight at a time, and the cache (its own
          // writes in flight included) tells the storage what the key holds (KvStorage.create says why).
          return await this.writers.run(key, () =>
            this.timedStorage('create', () => this.deps.storage.create(key, value, ctx.traceContext, this.deps.cache.lastKnown(key))).then(
              (rev) => {
                hooks.commit(rev);
                return this.committed(o, enc, rev, key, value.length);
              },
              (err: unknown) => {
                throw err instanceof StorageError && err.kind === 'exists' ? alreadyExists(this.info, m.name!) : err;
              },
            ),
          );
        } catch (err) {
          hooks.rollback();
          throw err;
        }
      },
      201,
      { ctx, namespace, name: body?.metadata?.name },
    );
  }

  /** The newest stored state of a key, refreshed past the cache when a CAS lost. */
  private async current(key: string, refresh: boolean, ctx: RequestContext): Promise<CacheEntry | undefined> {
    if (refresh) {
      const fresh = await this.timedStorage('get', () => this.deps.storage.get(key, ctx.traceContext));
      if (fresh) await this.deps.cache.waitForRev(fresh.revision);
      else await this.deps.cache.waitConsistent();
    } else await this.deps.cache.waitConsistent();
    return this.deps.cache.get(key);
  }

  update(namespace: string | undefined, name: string, body: KubeObject, ctx: RequestContext, subresource?: Subresource): Promise<KubeObject> {
    return this.timed(
      { verb: 'PUT', subresource: subresource ?? '', scope: 'resource', dryRun: ctx.dryRun },
      async () => {
        const ns = this.checkNamespace(namespace);
        const o = this.checkBody(body, ns);
        if (o.metadata.name && o.metadata.name !== name) {
          throw badRequest(`the name of the object (${o.metadata.name}) does not match the name on the URL (${name})`);
        }
        o.metadata.name = name;
        const clientRv = o.metadata.resourceVersion;
        if (clientRv !== undefined && clientRv !== '') parseResourceVersion(clientRv);
        // Unconditional (no resourceVersion, a built-in kind: custom resources' strategy says no): the object replaces the latest one, retried on races.
        const unconditional = !clientRv && !this.custom && allowsUnconditionalUpdate(this.info);
        return this.guaranteedUpdate(ns, name, ctx, subresource, clientRv || undefined, (cur) => {
          if (unconditional) o.metadata.resourceVersion = cur.metadata.resourceVersion!;
          return o;
        });
      },
      200,
      { ctx, namespace, name },
    );
  }

  patch(namespace: string | undefined, name: string, patchType: PatchType, patch: unknown, ctx: RequestContext, subresource?: Subresource): Promise<KubeObject> {
    const apply = patchType === 'application/apply-patch+yaml';
    return this.timed(
      { verb: apply ? 'APPLY' : 'PATCH', subresource: subresource ?? '', scope: 'resource', dryRun: ctx.dryRun },
      async () => {
        const ns = this.checkNamespace(namespace);
        // An apply's managedFields are settled by the merge, before the strategy copies what the endpoint may not change.
        let applied: KubeObject['metadata']['managedFields'];
        const manage = apply ? (stored: Obj) => setManaged(stored, applied) : undefined;
        return this.guaranteedUpdate(
          ns,
          name,
          ctx,
          subresource,
          undefined,
          (cur) => {
            let patched: unknown;
            if (apply) {
              if (!isObject(patch)) throw badRequest('the body of an apply patch must be an object');
              const merged = this.fields.apply(cur, thaw(cur), patch as Obj, this.writer(ctx, subresource), ctx.force === true, nowTime());
              applied = merged.metadata.managedFields;
              patched = merged;
            } else patched = applyPatch(patchType, thaw(cur), patch);
            if (!isObject(patched)) throw badRequest('the patch produced something that is not an object');
            const o = this.checkBody(patched, ns);
            // Upstream decodes the patch result into the Go type: a wrong type is refused here, for REST and gRPC alike.
            checkPatchedTypes(this.info, o as KubeObject);
            if (o.metadata.name !== name) {
              throw badRequest(`the name of the object (${String(o.metadata.name)}) does not match the name on the URL (${name})`);
            }
            // A resourceVersion in the patch is a precondition (upstream: the patched object's RV is used for the update).
            if (o.metadata.resourceVersion && o.metadata.resourceVersion !== cur.metadata.resourceVersion) {
              throw conflict(this.info, name, OPTIMISTIC_LOCK_MESSAGE);
            }
            return o;
          },
          manage,
        );
      },
      200,
      { ctx, namespace, name },
    );
  }

  /**
   * A server-side read-modify-write (pods/binding). `mutate` gets a copy whose
   * top level and metadata it may write; the objects below are the stored
   * object's, frozen and shared: it replaces them (as the binding replaces
   * spec and status) instead of writing into them. A deep copy of the whole
   * pod per binding was 4 % of the apiserver's CPU in the scheduler bench.
   */
  patchWith(namespace: string, name: string, ctx: RequestContext, subresource: 'binding', mutate: (o: Obj) => Obj): Promise<KubeObject> {
    return this.timed(
      { verb: 'POST', subresource, scope: 'resource', dryRun: ctx.dryRun },
      async () => {
        const ns = this.checkNamespace(namespace);
        // The server's own write: managedFields stay as stored (upstream's binding records no manager).
        return this.guaranteedUpdate(
          ns,
          name,
          ctx,
          subresource,
          undefined,
          (cur) => mutate({ ...(cur as Obj), metadata: { ...cur.metadata } }),
          () => {},
        );
      },
      201,
      { ctx, namespace, name },
    );
  }

  /**
   * Read, transform, compare-and-swap, retry (upstream: GuaranteedUpdate). With a
   * client resourceVersion a lost race is the client's 409; without one the
   * server retries on the fresh object.
   */
  private guaranteedUpdate(
    ns: string,
    name: string,
    ctx: RequestContext,
    subresource: string | undefined,
    clientRv: string | undefined,
    make: (cur: KubeObject) => Obj,
    manage?: Manage,
  ): Promise<KubeObject> {
    // Writers of one object take turns, so a patch without a resourceVersion does not run out of retries under contention.
    return this.writers.run(this.key(ns, name), () => this.readModifyWrite(ns, name, ctx, subresource, clientRv, make, manage));
  }

  /** `manage` settles the stored object's managedFields; by default the write is an Update by the request's manager. */
  private async readModifyWrite(
    ns: string,
    name: string,
    ctx: RequestContext,
    subresource: string | undefined,
    clientRv: string | undefined,
    make: (cur: KubeObject) => Obj,
    manage?: Manage,
  ): Promise<KubeObject> {
    const key = this.key(ns, name);
    let refresh = false;
    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      const cur = await this.current(key, refresh, ctx);
      if (!cur) throw notFound(this.info, name);
      if (clientRv && clientRv !== cur.obj.metadata.resourceVersion) {
        if (Number(clientRv) < cur.rev) throw conflict(this.info, name, OPTIMISTIC_LOCK_MESSAGE);
        refresh = true;
        continue;
      }
      const next = make(cur.obj);
      // Defaulted before PrepareForUpdate (as upstream decodes), so generations compare defaulted specs.
      // The ephemeral containers a client adds are defaulted as containers are (upstream decodes every pod write with defaults).
      if (!subresource || subresource === 'ephemeralcontainers') setDefaults(next);
      // The binding's old object is only read (its copy was made by patchWith); others may share parts of it into the new one.
      const stored = prepareForUpdate(this.info, next, subresource === 'binding' ? (cur.obj as Obj) : thawIfFrozen(cur.obj), subresource);
      if (this.custom) {
        this.custom.normalize(stored);
        this.custom.prepareForUpdate(stored, cur.obj as Obj, subresource);
      }
      if (manage) manage(stored, cur.obj);
      else this.fields.update(cur.obj, stored, this.writer(ctx, subresource), nowTime());
      this.writeCheck?.update?.(stored, cur.obj, ns, ctx);
      const hooks = new AdmissionHooks();
      const a = this.attrs('UPDATE', ns, name, ctx, hooks, stored, cur.obj, subresource);
      try {
        const review = this.deps.admission.review(a, subresource !== 'binding' ? () => this.validate(stored, cur.obj, subresource) : undefined);
        if (review) await review;
        const enc = this.encode(stored);
        if (ctx.dryRun) {
          hooks.rollback();
          stored.metadata.resourceVersion = cur.obj.metadata.resourceVersion!;
          return stored;
        }
        // A stale value (read with an older key or provider) is rewritten even unchanged: how keys are rotated.
        if (!cur.stale && storesAs(cur.wire, enc.bytes)) {
          hooks.rollback();
          return cur.obj; // no-op update: nothing written, the revision stays
        }
        const remove = shouldDeleteDuringUpdate(this.info, stored, cur.obj as Obj);
        const value = remove ? undefined : this.toStorage(key, enc.bytes);
        let rev: number;
        try {
          rev = value
            ? await this.timedStorage('update', () => this.deps.storage.update(key, value, cur.rev, ctx.traceContext))
            : await this.timedStorage('delete', () => this.deps.storage.delete(key, cur.rev, ctx.traceContext));
        } catch (err) {
          if (err instanceof StorageError && err.kind === 'stale') {
            hooks.rollback();
            if (clientRv) throw conflict(this.info, name, OPTIMISTIC_LOCK_MESSAGE);
            refresh = true;
            continue;
          }
          throw err;
        }
        hooks.commit(rev);
        return this.committed(stored, enc, rev, key, value?.length);
      } catch (err) {
        hooks.rollback();
        throw err;
      }
    }
    throw conflict(this.info, name, `${OPTIMISTIC_LOCK_MESSAGE} (gave up after ${MAX_RETRIES} attempts)`);
  }

  delete(namespace: string | undefined, name: string, options: DeleteOptions, ctx: RequestContext): Promise<DeleteResult> {
    return this.timed(
      { verb: 'DELETE', subresource: '', scope: 'resource', dryRun: ctx.dryRun === true || (Array.isArray(options?.dryRun) && options.dryRun.includes('All')) },
      async () => {
        const ns = this.checkNamespace(namespace);
        const opts = options ?? {};
        if (opts.gracePeriodSeconds !== undefined && (typeof opts.gracePeriodSeconds !== 'number' || !Number.isFinite(opts.gracePeriodSeconds))) {
          throw badRequest('gracePeriodSeconds: must be a number');
        }
        const dryRun = ctx.dryRun === true || (Array.isArray(opts.dryRun) && opts.dryRun.includes('All'));
        const key = this.key(ns, name);
        return this.writers.run(key, () => this.deleteQueued(ns, name, key, opts, dryRun, ctx));
      },
      200,
      { ctx, namespace, name },
    );
  }

  /** One delete in the key's queue (Store.delete): read, admit, then remove or mark the object, retrying a lost compare-and-swap. */
  private async deleteQueued(ns: string, name: string, key: string, opts: DeleteOptions, dryRun: boolean, ctx: RequestContext): Promise<DeleteResult> {
    let refresh = false;
    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      const cur = await this.current(key, refresh, ctx);
      if (!cur) throw notFound(this.info, name);
      const o = cur.obj as Obj;
      const pre = opts.preconditions;
      if (pre?.uid && pre.uid !== o.metadata.uid) {
        throw conflict(this.info, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${o.metadata.uid ?? ''}`);
      }
      if (pre?.resourceVersion && pre.resourceVersion !== o.metadata.resourceVersion) {
        throw conflict(this.info, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${o.metadata.resourceVersion ?? ''}`);
      }
      const hooks = new AdmissionHooks();
      const a = this.attrs('DELETE', ns, name, { ...ctx, dryRun }, hooks, undefined, o);
      const review = this.deps.admission.review(a, undefined);
      if (review) await review;

      const grace = gracePeriodSeconds(this.info, o, opts);
      const finalizers = pendingFinalizers(this.info, o);
      // A CRD is held by its cleanup finalizer until its objects are gone (upstream: the CRD REST's Delete).
      const next = planDelete(this.info, o, grace, finalizers.length > 0, isCrdResource(this.info) ? CLEANUP_FINALIZER : gcFinalizer(opts));
      if (next === 'unchanged') return { object: o, deleted: false };
      if (dryRun) return { object: next === 'remove' ? o : next, deleted: next === 'remove' };
      try {
        if (next === 'remove') {
          const rev = await this.timedStorage('delete', () => this.deps.storage.delete(key, cur.rev, ctx.traceContext));
          this.deps.cache.observeWrite(rev, key);
          return { object: o, deleted: true };
        }
        const enc = this.encode(next);
        const value = this.toStorage(key, enc.bytes);
        const rev = await this.timedStorage('update', () => this.deps.storage.update(key, value, cur.rev, ctx.traceContext));
        return { object: this.committed(next, enc, rev, key, value.length), deleted: false };
      } catch (err) {
        if (err instanceof StorageError && err.kind === 'stale') {
          if (pre?.resourceVersion) throw conflict(this.info, name, OPTIMISTIC_LOCK_MESSAGE);
          refresh = true;
          continue;
        }
        throw err;
      }
    }
    throw conflict(this.info, name, OPTIMISTIC_LOCK_MESSAGE);
  }
}

/**
 * What a delete does (upstream: BeforeDelete + finalizer handling): remove
 * now, or store the object with deletionTimestamp set (graceful / finalizers),
 * or nothing when an earlier delete already did that.
 */
export function planDelete(info: ResourceInfo, o: Obj, grace: number, hasFinalizers: boolean, addFinalizer?: string): 'remove' | 'unchanged' | Obj {
  const m = o.metadata;
  const needsFinalizer = addFinalizer !== undefined && !(m.finalizers ?? []).includes(addFinalizer);
  if (grace === 0 && !hasFinalizers && !addFinalizer) return 'remove';
  if (m.deletionTimestamp) {
    const current = m.deletionGracePeriodSeconds ?? 0;
    // Only a shorter grace period (or a new GC finalizer) changes a pending deletion.
    if (grace >= current && !needsFinalizer) return 'unchanged';
    const next = thaw(o);
    if (grace < current) {
      next.metadata.deletionTimestamp = nowTime(grace);
      next.metadata.deletionGracePeriodSeconds = grace;
    }
    if (needsFinalizer) next.metadata.finalizers = [...(m.finalizers ?? []), addFinalizer!];
    return next;
  }
  const next = thaw(o);
  next.metadata.deletionTimestamp = nowTime(grace);
  next.metadata.deletionGracePeriodSeconds = grace;
  if (needsFinalizer) next.metadata.finalizers = [...(m.finalizers ?? []), addFinalizer!];
  if (isNamespaces(info)) next.status = { ...(next.status ?? {}), phase: 'Terminating' };
  if (isCrdResource(info)) markTerminating(next as unknown as CustomResourceDefinition, nowTime());
  return next;
}

/** The garbage collector's finalizer for a propagation policy (upstream: deletionFinalizersForGarbageCollection). */
export function gcFinalizer(options: DeleteOptions): string | undefined {
  if (options.propagationPolicy === 'Foreground') return 'foregroundDeletion';
  if (options.propagationPolicy === 'Orphan' || options.orphanDependents === true) return 'orphan';
  return undefined;
}

/** Sets the managedFields an apply computed on the object the strategy prepared. */
type Manage = (stored: Obj, cur: KubeObject) => void;

function setManaged(o: Obj, entries: KubeObject['metadata']['managedFields']): void {
  o.metadata = { ...o.metadata };
  if (entries?.length) o.metadata.managedFields = entries;
  else delete o.metadata.managedFields;
}

function thawIfFrozen(o: KubeObject): Obj {
  return Object.isFrozen(o) ? thaw(o) : (o as Obj);
}

function keyOf(o: KubeObject, s: GenericStore): string {
  return storageKey(s.info, o.metadata.namespace, o.metadata.name ?? '');
}

function lowerBoundEntries(entries: CacheEntry[], key: string): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid]!.key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The continue token as upstream shapes it: base64 of {"v","rv","start"} (rv -1: continue at the newest state). */
export function encodeContinue(rv: string, startKey: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: Number(rv), start: startKey })).toString('base64url');
}

export function decodeContinue(token: string): { rv: number; start: string } {
  let t: { v?: unknown; rv?: unknown; start?: unknown };
  try {
    t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as typeof t;
  } catch {
    t = {};
  }
  if (t === null || typeof t !== 'object' || t.v !== 'meta.k8s.io/v1' || typeof t.start !== 'string')
    throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  // 0 is a token without a revision; -1 the "inconsistent" token a 410 hands out.
  if (typeof t.rv !== 'number' || !Number.isSafeInteger(t.rv) || t.rv === 0 || t.rv < -1)
    throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  return { rv: t.rv, start: t.start };
}

/**
 * 410 for a continue token whose snapshot left the event window, carrying a
 * token for the remainder at the newest state (upstream: etcd3's
 * handleCompactedErrorForPaging, inconsistentContinue).
 */
export function inconsistentContinue(startKey: string): StatusError {
  const e = expired(
    'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
  );
  e.status.metadata = { continue: encodeContinue('-1', startKey) };
  return e;
}

/** The revision a list must show exactly: resourceVersionMatch=Exact, or (legacy) a numbered resourceVersion with a limit. */
export function exactRevision(opts: Pick<ListOptions, 'resourceVersion' | 'resourceVersionMatch' | 'limit' | 'continue'>): number | undefined {
  const rv = opts.resourceVersion;
  if (!rv || rv === '0' || opts.continue) return undefined;
  if (opts.resourceVersionMatch === 'Exact' || (!opts.resourceVersionMatch && opts.limit !== undefined && opts.limit > 0)) return parseResourceVersion(rv);
  return undefined;
}

/** Any failure as a StatusError (storage outages are 503s the client retries). */
/** What the apiserver answers (504 Timeout) when a request's storage call does not complete: etcd unreachable. */
export const STORAGE_TIMEOUT_MESSAGE = 'Timeout: request did not complete within requested timeout - context deadline exceeded';

export function toStatusError(err: unknown): StatusError {
  if (StatusError.isInstance(err)) return err;
  if (err instanceof StorageError) {
    if (err.kind === 'too-large') return requestEntityTooLarge(`Request entity too large: ${err.message} (etcdserver: request is too large)`);
    if (err.kind === 'bad-key') return badRequest(`invalid object name for storage: ${err.message}`);
    // The store in etcd's role unreachable (NATS stopped, gone or not answering in time): upstream's answer when etcd does not answer.
    if (err.kind === 'unavailable') return timeout(STORAGE_TIMEOUT_MESSAGE);
    // A NATS cluster without a majority: etcd's own error passed on, as kube-apiserver does with an error that is not a Status (500, no reason).
    if (err.kind === 'no-quorum') return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: err.message, code: 500 }, { cause: err });
  }
  return internalError(err);
}
