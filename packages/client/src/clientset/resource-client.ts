// A typed client for one resource over the apiserver's gRPC API (client-go's
// generated typed clients, one generic implementation): objects travel as
// their Kubernetes JSON both ways.

import * as grpc from '@grpc/grpc-js';
import type { Binding, KubeList, KubeObject, TokenRequest, WatchEvent, WatchEventType } from '@kubelab/api';
import { badRequest, internalError } from '@kubelab/api';
import type { Connection, RequestOptions } from '../transport/connection.js';
import { toStatusError } from '../transport/errors.js';
import { Channel, type WatchStream } from '../util/channel.js';
import {
  patchContentType,
  type DeleteCallOptions,
  type DeleteResult,
  type GetOptions,
  type GroupVersionResource,
  type ListOptions,
  type PatchOptions,
  type PatchType,
  type SubresourceClient,
  type WatchOptions,
  type UpdateOptions,
  type WriteOptions,
} from './types.js';

const EMPTY = Buffer.alloc(0);

function decode<T>(bytes: Buffer | Uint8Array | undefined, what: string): T {
  try {
    // A Buffer (as grpc-js decodes bytes fields) is read where it lies; Buffer.from would copy it first.
    const buf = bytes === undefined ? EMPTY : Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return JSON.parse(buf.toString('utf8')) as T;
  } catch (err) {
    throw internalError(new Error(`decoding ${what}: ${(err as Error).message}`));
  }
}

function encode(obj: unknown): Buffer {
  return Buffer.from(JSON.stringify(obj));
}

export class ResourceClient<T extends KubeObject> implements SubresourceClient<T> {
  constructor(
    private readonly conn: Connection,
    readonly gvr: GroupVersionResource,
    readonly namespace: string = '',
  ) {}

  private ns(obj?: KubeObject): string {
    return this.namespace || obj?.metadata?.namespace || '';
  }

  async get(name: string, opts: GetOptions = {}): Promise<T> {
    const res = await this.conn.read('Get', { resource: this.gvr, namespace: this.namespace, name, resourceVersion: opts.resourceVersion ?? '' }, opts);
    return decode<T>(res.json, `${this.gvr.resource} "${name}"`);
  }

  async list(opts: ListOptions = {}): Promise<KubeList<T>> {
    const res = await this.conn.read(
      'List',
      {
        resource: this.gvr,
        namespace: this.namespace,
        labelSelector: opts.labelSelector ?? '',
        fieldSelector: opts.fieldSelector ?? '',
        resourceVersion: opts.resourceVersion ?? '',
        limit: String(opts.limit ?? 0),
        continue: opts.continue ?? '',
      },
      opts,
    );
    return decode<KubeList<T>>(res.json, `${this.gvr.resource} list`);
  }

  watch(opts: WatchOptions = {}): WatchStream<WatchEvent<T>> {
    type WireWatchEvent = { type: string; object: Buffer; batch: WireWatchEvent[] };
    const call = this.conn.watch(
      {
        resource: this.gvr,
        namespace: this.namespace,
        labelSelector: opts.labelSelector ?? '',
        fieldSelector: opts.fieldSelector ?? '',
        resourceVersion: opts.resourceVersion ?? '',
        allowWatchBookmarks: opts.allowWatchBookmarks ?? false,
        timeoutSeconds: String(opts.timeoutSeconds ?? 0),
        // the server may pack queued events into one message on busy watches
        allowBatch: true,
      },
      opts,
    );
    let stopped = false;
    const ch = new Channel<WatchEvent<T>>(() => {
      stopped = true;
      call.cancel();
    });
    call.on('data', (msg: WireWatchEvent) => {
      try {
        for (const ev of msg.batch.length > 0 ? msg.batch : [msg]) {
          ch.push({ type: ev.type as WatchEventType, object: decode<T>(ev.object, `${this.gvr.resource} watch event`) });
        }
      } catch (err) {
        ch.fail(err);
        call.cancel();
      }
    });
    call.on('error', (err: grpc.ServiceError) => {
      if (stopped || err.code === grpc.status.CANCELLED) ch.end();
      else ch.fail(toStatusError(err));
    });
    call.on('end', () => ch.end());
    const onAbort = () => ch.stop();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    return ch;
  }

  async create(obj: T, opts: WriteOptions = {}): Promise<T> {
    const json = await this.conn.write({ request: { resource: this.gvr, namespace: this.ns(obj), object: encode(obj), ...writeFields(opts) } }, opts);
    return decode<T>(json, `created ${this.gvr.resource}`);
  }

  async update(obj: T, opts: UpdateOptions = {}): Promise<T> {
    return this.put('Update', obj, opts);
  }

  async updateStatus(obj: T, opts: WriteOptions = {}): Promise<T> {
    return this.put('UpdateStatus', obj, opts);
  }

  private async put(method: 'Update' | 'UpdateStatus', obj: T, opts: UpdateOptions): Promise<T> {
    const name = obj.metadata?.name;
    if (!name) throw badRequest('metadata.name: Required value: name is required for update');
    const sub = opts.subresource ? { subresource: opts.subresource } : {};
    const item = { resource: this.gvr, namespace: this.ns(obj), name, object: encode(obj), ...writeFields(opts), ...sub };
    const json = await this.conn.write(method === 'Update' ? { update: item } : { updateStatus: item }, opts);
    return decode<T>(json, `updated ${this.gvr.resource} "${name}"`);
  }

  async patch(name: string, patchType: PatchType, patch: unknown, opts: PatchOptions = {}): Promise<T> {
    const body = typeof patch === 'string' || Buffer.isBuffer(patch) ? Buffer.from(patch as string) : encode(patch);
    const json = await this.conn.write(
      {
        patch: {
          resource: this.gvr,
          namespace: this.namespace,
          name,
          patchType: patchContentType(patchType),
          patch: body,
          subresource: opts.subresource ?? '',
          ...writeFields(opts),
        },
      },
      opts,
    );
    return decode<T>(json, `patched ${this.gvr.resource} "${name}"`);
  }

  async delete(name: string, opts: DeleteCallOptions = {}): Promise<DeleteResult<T>> {
    const { signal, timeoutMs, traceContext, traceparent, tracestate, ...deleteOptions } = opts;
    const hasOptions = Object.keys(deleteOptions).length > 0;
    const res = await this.conn.unary(
      'Delete',
      {
        resource: this.gvr,
        namespace: this.namespace,
        name,
        options: hasOptions ? encode({ kind: 'DeleteOptions', apiVersion: 'v1', ...deleteOptions }) : Buffer.alloc(0),
      },
      { signal, timeoutMs, traceContext, traceparent, tracestate } as RequestOptions,
    );
    return { object: decode<T>(res.object, `deleted ${this.gvr.resource} "${name}"`), deleted: res.deleted };
  }

  async bind(binding: Binding, opts: RequestOptions = {}): Promise<void> {
    const ns = this.namespace || binding.metadata?.namespace || '';
    await this.conn.write({ bind: { namespace: ns, binding: encode({ apiVersion: 'v1', kind: 'Binding', ...binding }) } }, opts);
  }

  async createToken(name: string, request: TokenRequest, opts: RequestOptions = {}): Promise<TokenRequest> {
    const body = encode({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', ...request });
    const json = await this.conn.write({ createToken: { namespace: this.namespace, name, tokenRequest: body } }, opts);
    return decode<TokenRequest>(json, `token of serviceaccount "${name}"`);
  }
}

function writeFields(opts: WriteOptions): { dryRun: string; fieldManager: string } {
  return { dryRun: opts.dryRun?.includes('All') ? 'All' : '', fieldManager: opts.fieldManager ?? '' };
}
