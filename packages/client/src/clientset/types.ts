// What a typed client can do (client-go's generated typed interfaces), shared
// by the gRPC clients and the in-memory fakes in ./testing.

import type { Binding, DeleteOptions, KubeList, KubeObject, TokenRequest, WatchEvent } from '@kubelab/api';
import type { RequestOptions } from '../transport/connection.js';
import type { WatchStream } from '../util/channel.js';

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

export interface GetOptions extends RequestOptions {
  /** "" = most recent, "0" = any cached state. */
  resourceVersion?: string;
}

export interface ListOptions extends RequestOptions {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  limit?: number;
  continue?: string;
}

export interface WatchOptions extends RequestOptions {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number;
}

export interface WriteOptions extends RequestOptions {
  /** `['All']`: admit and validate without persisting. */
  dryRun?: string[];
  fieldManager?: string;
}

/** Short names for the patch content types, as `kubectl patch --type`. */
export type PatchType = 'merge' | 'json' | 'strategic' | 'application/merge-patch+json' | 'application/json-patch+json' | 'application/strategic-merge-patch+json';

export interface UpdateOptions extends WriteOptions {
  /** `approval`: a CSR's Approved/Denied conditions (client-go's UpdateApproval); `finalize`: a namespace's spec.finalizers (client-go's Finalize). */
  subresource?: 'approval' | 'finalize';
}

export interface PatchOptions extends WriteOptions {
  /** `status` patches the status subresource; `finalize` a namespace's spec.finalizers (namespaces/finalize); `approval` a CSR's Approved/Denied conditions. */
  subresource?: 'status' | 'finalize' | 'approval';
}

export interface DeleteCallOptions extends RequestOptions, DeleteOptions {}

export interface DeleteResult<T> {
  /** The object as deleted, or as it now is when deletion is graceful (deletionTimestamp set). */
  object: T;
  /** True when the object is gone from storage. */
  deleted: boolean;
}

export interface ResourceInterface<T extends KubeObject> {
  readonly gvr: GroupVersionResource;
  /** '' for cluster-scoped resources or all namespaces. */
  readonly namespace: string;
  get(name: string, opts?: GetOptions): Promise<T>;
  list(opts?: ListOptions): Promise<KubeList<T>>;
  watch(opts?: WatchOptions): WatchStream<WatchEvent<T>>;
  create(obj: T, opts?: WriteOptions): Promise<T>;
  update(obj: T, opts?: UpdateOptions): Promise<T>;
  updateStatus(obj: T, opts?: WriteOptions): Promise<T>;
  patch(name: string, patchType: PatchType, patch: unknown, opts?: PatchOptions): Promise<T>;
  delete(name: string, opts?: DeleteCallOptions): Promise<DeleteResult<T>>;
}

export interface PodInterface<T extends KubeObject> extends ResourceInterface<T> {
  /** pods/binding: assigns the pod named binding.metadata.name to binding.target.name. */
  bind(binding: Binding, opts?: RequestOptions): Promise<void>;
}

export interface ServiceAccountInterface<T extends KubeObject> extends ResourceInterface<T> {
  /** serviceaccounts/<name>/token: issues a token for the service account (TokenRequest; client-go CreateToken). */
  createToken(name: string, request: TokenRequest, opts?: RequestOptions): Promise<TokenRequest>;
}

/** One client object serves every resource: the verbs plus the subresources some kinds have (pods/binding, serviceaccounts/token). */
export type SubresourceClient<T extends KubeObject> = PodInterface<T> & ServiceAccountInterface<T>;

export function patchContentType(t: PatchType): string {
  switch (t) {
    case 'merge':
      return 'application/merge-patch+json';
    case 'json':
      return 'application/json-patch+json';
    case 'strategic':
      return 'application/strategic-merge-patch+json';
    default:
      return t;
  }
}
