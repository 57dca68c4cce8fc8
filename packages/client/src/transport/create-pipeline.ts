// Writes pipelined on one long-lived CreateStream (etcd's client pipelines its
// requests on one connection likewise): creates, bindings, updates and
// patches, token requests. A unary gRPC call costs client and apiserver several times the CPU
// of the write itself; a stream message costs a fraction. Writes issued in the
// same I/O turn share one message; each is answered by id as soon as it
// finishes, with exactly the result or metav1.Status its own call (Create,
// Bind, Update, UpdateStatus, Patch, CreateToken) would have given.

import * as grpc from '@grpc/grpc-js';
import { grpcToStatus } from '@kubelab/proto';
import type { StatusError } from '@kubelab/api';
import { toStatusError } from './errors.js';

/** One create as the Create RPC takes it. */
export interface CreateItem {
  resource: { group: string; version: string; resource: string };
  namespace: string;
  object: Buffer;
  dryRun: string;
  fieldManager: string;
}

/** One binding as the Bind RPC takes it (a create of pods/binding). */
export interface BindItem {
  namespace: string;
  /** The v1 Binding's JSON. */
  binding: Buffer;
}

/** One update as the Update and UpdateStatus RPCs take it. */
export interface UpdateItem {
  resource: { group: string; version: string; resource: string };
  namespace: string;
  name: string;
  object: Buffer;
  dryRun: string;
  fieldManager: string;
  /** Update only: "approval" or "finalize"; absent: the object itself. */
  subresource?: string;
}

/** One patch as the Patch RPC takes it. */
export interface PatchItem {
  resource: { group: string; version: string; resource: string };
  namespace: string;
  name: string;
  patchType: string;
  patch: Buffer;
  subresource: string;
  dryRun: string;
  fieldManager: string;
}

/** One TokenRequest as the CreateToken RPC takes it (serviceaccounts/<name>/token). */
export interface CreateTokenItem {
  namespace: string;
  /** The ServiceAccount's name. */
  name: string;
  /** The authentication.k8s.io/v1 TokenRequest's JSON. */
  tokenRequest: Buffer;
}

/** What one item writes (CreateStreamItem's oneof `write`), keyed as the wire names it. */
export type PipelinedWrite = { request: CreateItem } | { bind: BindItem } | { update: UpdateItem } | { updateStatus: UpdateItem } | { patch: PatchItem } | { createToken: CreateTokenItem };

/** The bytes a write carries (what counts toward a message's size). */
function writeBytes(w: PipelinedWrite): number {
  if ('request' in w) return w.request.object.length;
  if ('bind' in w) return w.bind.binding.length;
  if ('update' in w) return w.update.object.length;
  if ('updateStatus' in w) return w.updateStatus.object.length;
  if ('patch' in w) return w.patch.patch.length;
  return w.createToken.tokenRequest.length;
}

/** One answer on the stream. */
export interface CreateResultWire {
  id: number;
  code: number;
  object: Buffer;
  status: Buffer;
}

/** The W3C trace context an item carries (CreateStreamItem.traceparent/tracestate): its caller's. */
export interface ItemTrace {
  traceparent?: string;
  tracestate?: string;
}

/** One item on the stream. */
export type StreamItem = ItemTrace & { id: number } & PipelinedWrite;

/** The duplex call as the pipeline uses it (a grpc.ClientDuplexStream, or a fake in tests). */
export interface CreateStreamCall {
  write(msg: { items: StreamItem[] }): boolean;
  end(): void;
  cancel(): void;
  on(event: 'data', f: (msg: { results: CreateResultWire[] }) => void): unknown;
  on(event: 'error', f: (err: Error) => void): unknown;
  on(event: 'end' | 'close', f: () => void): unknown;
}

export interface CreatePipelineOptions {
  /** Opens a CreateStream call. */
  open(): CreateStreamCall;
  /** The write's own call (Create, Bind, …), for an item too big to share a message (with the item's trace context in its metadata). */
  single(item: PipelinedWrite, trace?: ItemTrace): Promise<Buffer>;
  /** How long an item may wait for its answer (the unary deadline's role). */
  timeoutMs: number;
  /** The stream is ended after this long without unanswered items (default 5 min: a writer every 10 s, a Lease renewal, keeps its stream; opening one costs more than a unary call). */
  idleMs?: number;
  /** Most items in one message. */
  maxItems?: number;
  /** Most object bytes in one message (below the apiserver's 8 MiB message limit). */
  maxBytes?: number;
}

interface Pending {
  item: PipelinedWrite;
  trace: ItemTrace | undefined;
  resolve(json: Buffer): void;
  reject(err: unknown): void;
  deadline: number;
}

/** Items bigger than this go as their own Create call: per-call cost is small beside them. */
const ALONE_BYTES = 256 * 1024;

/** What a create gets once the client is closed: as a call cancelled by its caller. */
function closedError(): StatusError {
  return grpcToStatus({ code: grpc.status.CANCELLED, details: 'the client was closed before the create was answered' });
}

/** The StatusError a failed item stands for: the same as a Create call's `kubelab-status` trailer gives. */
export function resultError(r: Pick<CreateResultWire, 'code' | 'status'>): StatusError {
  const metadata = new grpc.Metadata();
  if (r.status.length > 0) metadata.set('kubelab-status', r.status.toString('utf8'));
  return grpcToStatus({ code: r.code, details: '', metadata });
}

export class CreatePipeline {
  private queue: Pending[] = [];
  private scheduled = false;
  private call: CreateStreamCall | undefined;
  private readonly waiting = new Map<number, Pending>();
  private nextId = 1;
  private sweeper: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly maxItems: number;
  private readonly maxBytes: number;
  private readonly idleMs: number;

  constructor(private readonly opts: CreatePipelineOptions) {
    this.maxItems = opts.maxItems ?? 256;
    this.maxBytes = opts.maxBytes ?? 4 * 1024 * 1024;
    this.idleMs = opts.idleMs ?? 300_000;
  }

  /** The apiserver has no CreateStream (an older one): every write is its own call. */
  private unsupported = false;

  /** close() was called: nothing more is sent, and nothing is left waiting. */
  private closed = false;

  /**
   * One write: resolves with the object its call returns (empty for a
   * binding). `trace`: the caller's trace context, sent with the item (the
   * write continues that trace).
   */
  write(item: PipelinedWrite, trace?: ItemTrace): Promise<Buffer> {
    if (this.closed) return Promise.reject(closedError());
    if (this.unsupported || writeBytes(item) > ALONE_BYTES) return this.opts.single(item, trace);
    return new Promise<Buffer>((resolve, reject) => {
      this.queue.push({ item, trace, resolve, reject, deadline: 0 });
      if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate: after every callback of this I/O turn (e.g. all the
        // answers that arrived together) has issued its next create.
        setImmediate(() => this.flush());
      }
    });
  }

  /** Sends everything queued, in messages of at most maxItems / maxBytes. */
  flush(): void {
    this.scheduled = false;
    const q = this.queue;
    this.queue = [];
    if (q.length === 0) return;
    if (this.unsupported) {
      for (const p of q) this.opts.single(p.item, p.trace).then(p.resolve, p.reject);
      return;
    }
    let call: CreateStreamCall;
    try {
      call = this.stream();
    } catch (err) {
      // Opening failed (e.g. the channel was shut down): these items fail, nothing is thrown from the timer.
      for (const p of q) p.reject(toStatusError(err));
      return;
    }
    const deadline = Date.now() + this.opts.timeoutMs;
    let items: StreamItem[] = [];
    let bytes = 0;
    for (const p of q) {
      const size = writeBytes(p.item);
      if (items.length > 0 && (items.length >= this.maxItems || bytes + size > this.maxBytes)) {
        call.write({ items });
        items = [];
        bytes = 0;
      }
      const id = this.nextId;
      this.nextId = this.nextId >= 0xffffffff ? 1 : this.nextId + 1;
      p.deadline = deadline;
      this.waiting.set(id, p);
      items.push(p.trace ? { id, ...p.item, ...p.trace } : { id, ...p.item });
      bytes += size;
    }
    call.write({ items });
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = undefined;
    }
  }

  private stream(): CreateStreamCall {
    if (this.call) return this.call;
    const call = this.opts.open();
    this.call = call;
    call.on('data', (msg) => {
      for (const r of msg.results) {
        const p = this.waiting.get(r.id);
        if (!p) continue; // timed out already
        this.waiting.delete(r.id);
        if (r.code === grpc.status.OK) p.resolve(r.object);
        else p.reject(resultError(r));
      }
      if (this.waiting.size === 0 && this.call === call) this.armIdle(call);
    });
    // The stream failed or ended: every unanswered item fails as its Create call would have.
    const fail = (err: StatusError) => {
      if (this.call === call) this.call = undefined;
      for (const [id, p] of this.waiting) {
        this.waiting.delete(id);
        p.reject(err);
      }
    };
    call.on('error', (err) => {
      if ((err as { code?: unknown }).code === grpc.status.UNIMPLEMENTED) {
        // Version skew: nothing ran on the server, so the items go again as Create calls.
        this.unsupported = true;
        if (this.call === call) this.call = undefined;
        for (const [id, p] of this.waiting) {
          this.waiting.delete(id);
          this.opts.single(p.item, p.trace).then(p.resolve, p.reject);
        }
        return;
      }
      fail(toStatusError(err));
    });
    call.on('end', () => fail(grpcToStatus({ code: grpc.status.UNAVAILABLE, details: 'the apiserver ended the create stream before answering' })));
    this.sweeper ??= setInterval(() => this.sweep(Date.now()), 1_000);
    this.sweeper.unref?.();
    return call;
  }

  private armIdle(call: CreateStreamCall): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.call === call && this.waiting.size === 0 && this.queue.length === 0) {
        this.call = undefined;
        call.end();
      }
    }, this.idleMs);
    this.idleTimer.unref?.();
  }

  /** Fails items whose answer is overdue, as a Create call's deadline would. */
  sweep(now: number): void {
    for (const [id, p] of this.waiting) {
      if (p.deadline <= now) {
        this.waiting.delete(id);
        p.reject(grpcToStatus({ code: grpc.status.DEADLINE_EXCEEDED, details: `Deadline exceeded: no answer to the create within ${this.opts.timeoutMs} ms` }));
      }
    }
  }

  /** Fails what is queued or unanswered (the client is going away) and ends the stream. */
  close(): void {
    this.closed = true;
    const err = closedError();
    for (const p of this.queue.splice(0)) p.reject(err);
    for (const p of this.waiting.values()) p.reject(err);
    this.waiting.clear();
    if (this.sweeper) clearInterval(this.sweeper);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.sweeper = undefined;
    this.call?.cancel();
    this.call = undefined;
  }
}
