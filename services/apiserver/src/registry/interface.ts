// The storage-facing API both transports (gRPC for components, REST for
// kubectl) call: one place for admission, validation, defaulting, CAS and
// watch semantics, as upstream's registry/generic.Store sits under every
// REST handler.

import type {
  CustomResourceColumnDefinition,
  CustomResourceSubresourceScale,
  DeleteOptions,
  FieldError,
  JSONSchemaProps,
  KubeList,
  KubeObject,
  ResourceInfo,
  WatchEvent,
  UserInfo,
} from '@kubelab/api';
import type { Context } from '@kubelab/tracing';
import type { AdmissionChain } from '../admission/chain.js';

/** Who is asking and how; passed through admission to storage. */
export interface RequestContext {
  /** The authenticated user (the apiserver's own writes: APISERVER). */
  user?: UserInfo;
  /** `dryRun=All`: admit and validate, never persist. */
  dryRun?: boolean;
  fieldManager?: string;
  /** The client's User-Agent: a write without a fieldManager is attributed to its first word. */
  userAgent?: string;
  /** `force=true` on an apply patch: take over the fields other managers own instead of a conflict. */
  force?: boolean;
  /** W3C traceparent of the calling request, for tracing. */
  traceparent?: string;
  /**
   * The request span's context (tracing on): the parent of the storage spans
   * and what the `kubelab.io/traceparent` annotation records. Handed down
   * explicitly, so no async context manager is needed across the awaits.
   */
  traceContext?: Context;
}

export interface ListOptions {
  /** Empty or undefined: across all namespaces. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** "" = most recent (consistent), "0" = any cached state, otherwise not older than this. */
  resourceVersion?: string;
  /** How resourceVersion applies: Exact (the state at it) or NotOlderThan; unset: the legacy rule (Exact when paged). */
  resourceVersionMatch?: string;
  limit?: number;
  continue?: string;
  /** Only for watches: a list that sets it is refused (upstream's validation). */
  sendInitialEvents?: boolean;
}

export interface WatchOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Resume after this revision; "" or "0": initial ADDED events for current state first. */
  resourceVersion?: string;
  allowWatchBookmarks?: boolean;
  /** Close the watch after this many seconds (0/undefined: never). */
  timeoutSeconds?: number;
  /** Watch-list: the current state as ADDED first, then a BOOKMARK annotated `k8s.io/initial-events-end` (needs resourceVersionMatch=NotOlderThan). */
  sendInitialEvents?: boolean;
  resourceVersionMatch?: string;
}

/** A running watch; iterate events until it ends, or stop() it. */
export interface Watch {
  events: AsyncIterable<WatchEvent>;
  stop(): void;
  /**
   * Optional batch access instead of `events`: resolves with every queued
   * event once there is at least one; an empty array means the watch ended.
   */
  nextBatch?(): Promise<WatchEvent[]>;
  /** Resolves once the server ended the watch (stopped, timed out, or closed for falling behind): a transport blocked on a client that does not read gives up then. */
  done?: Promise<void>;
}

export type PatchType = 'application/json-patch+json' | 'application/merge-patch+json' | 'application/strategic-merge-patch+json' | 'application/apply-patch+yaml';

/** `finalize`: namespaces' spec.finalizers (what the namespace controller writes); `approval`: a CSR's Approved/Denied conditions; `ephemeralcontainers`: a pod's spec.ephemeralContainers. */
export type Subresource = 'status' | 'finalize' | 'approval' | 'ephemeralcontainers' | undefined;

export interface DeleteResult {
  /** The object as deleted, or as it now is when deletion is graceful/finalized. */
  object: KubeObject;
  /** True when the object is gone from storage. */
  deleted: boolean;
}

type Obj = KubeObject & Record<string, unknown> & { spec?: Record<string, unknown>; status?: Record<string, unknown> };

/**
 * What a resource served at run time adds to the generic one (upstream: the
 * custom resource strategy and REST options of apiextensions): its schema's
 * defaulting, pruning and validation, its generation rule, its printer
 * columns and its scale subresource's paths.
 */
export interface CustomStrategy {
  /** Defaulting and pruning of a written object, in place, before validation. */
  normalize(o: Obj): void;
  validate(o: Obj, old: Obj | undefined, subresource: string | undefined): FieldError[];
  prepareForCreate(o: Obj): void;
  /** After the generic PrepareForUpdate: settles metadata.generation. */
  prepareForUpdate(next: Obj, old: Obj, subresource: string | undefined): void;
  /** The version's structural schema (OpenAPI, `kubectl explain`). */
  readonly schema: JSONSchemaProps;
  /** The fields a write carries that the schema prunes, as strict decoding names them (`spec.foo`, `spec.list[0].bar`). */
  unknownFields(o: Obj): string[];
  /** additionalPrinterColumns of the served version (Table output). */
  readonly columns: readonly CustomResourceColumnDefinition[];
  /** The scale subresource's paths, when served. */
  readonly scale?: CustomResourceSubresourceScale;
}

/**
 * One resource's storage (upstream: a generic.Store with its strategy).
 * Objects returned by get/list/watch are the watch cache's shared copies:
 * deeply frozen, never to be mutated (structuredClone first). Their stored
 * JSON is available without re-serializing via `rawJson(obj)` from the
 * apiserver's cache/raw module.
 */
export interface ResourceStore {
  readonly info: ResourceInfo;
  /** Set for a custom resource (a CRD's version). */
  readonly custom?: CustomStrategy;
  get(namespace: string | undefined, name: string, opts?: { resourceVersion?: string }): Promise<KubeObject>;
  list(opts: ListOptions): Promise<KubeList>;
  watch(opts: WatchOptions): Watch;
  /** `Apply`: the create of a server-side apply to a missing object (the applier owns what it applied). */
  create(namespace: string | undefined, obj: KubeObject, ctx: RequestContext, operation?: 'Apply'): Promise<KubeObject>;
  update(namespace: string | undefined, name: string, obj: KubeObject, ctx: RequestContext, subresource?: Subresource): Promise<KubeObject>;
  patch(namespace: string | undefined, name: string, patchType: PatchType, patch: unknown, ctx: RequestContext, subresource?: Subresource): Promise<KubeObject>;
  delete(namespace: string | undefined, name: string, options: DeleteOptions, ctx: RequestContext): Promise<DeleteResult>;
}

/**
 * A resource's own check of writes, run before admission (upstream: a REST
 * storage wrapping the standard one, as RBAC's policybased storages do).
 * Throws the request's error (a StatusError).
 */
export interface WriteCheck {
  create?(obj: KubeObject, namespace: string, ctx: RequestContext): void;
  /** Updates and patches, with the stored object they replace. */
  update?(obj: KubeObject, old: KubeObject, namespace: string, ctx: RequestContext): void;
}

export interface Registry {
  /** The store for a resource, or undefined when kubelab does not serve it. */
  store(group: string, version: string, resource: string): ResourceStore | undefined;
  /** pods/binding: sets spec.nodeName once (409 if already bound). */
  bind(namespace: string, binding: KubeObject, ctx: RequestContext): Promise<void>;
  /** The newest revision the watch cache has seen (the cluster's resourceVersion). */
  currentRevision(): number;
  /** Resources served at run time (custom resources), for discovery; absent: none. */
  runtimeResources?(): readonly ResourceInfo[];
  /** The admission chain every write passes; subresources that store nothing themselves (eviction, token) run it here. */
  readonly admission: AdmissionChain;
}
