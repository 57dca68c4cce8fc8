// NATS JetStream KV in etcd's role: one key per object, the stream sequence
// as the global revision (etcd's mod_revision = resourceVersion), and
// create / compare-and-swap update / conditional delete as the only writes,
// which is what upstream's storage/etcd3 store needs from etcd.

import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV, type KvWatchEntry } from '@nats-io/kv';
import { APISERVER_NATS_IDENTITY, natsAuthOptions, type NatsClientTls } from '@kubelab/nats';
import { traceparentFor, type Context, type Tracing } from '@kubelab/tracing';
import { storageSpan, type KvOperation } from '../tracing/storage.js';
import { PipelinedPublisher } from './publisher.js';

export interface KvStorageOptions {
  url: string;
  bucket: string;
  /** Connection name shown by the NATS server's monitoring. */
  name?: string;
  /** --etcd-cafile, --etcd-certfile, --etcd-keyfile: mutual TLS as kube-apiserver-etcd-client. Unset: plain NATS. */
  tls?: NatsClientTls;
  /** Log hook for connection status changes. */
  onStatus?: (what: string, detail?: unknown) => void;
  /** Storage calls made inside a request span become its children (`KV create`, ...; see tracing/storage.ts). */
  tracing?: Tracing;
}

/** Why a conditional write failed; the registry turns it into a Status. */
export type CasFailure = 'exists' | 'stale' | 'too-large' | 'unavailable' | 'bad-key' | 'no-quorum';

/**
 * What etcd answers when its member is alive but the cluster has no quorum
 * (a proposal not committed within the request timeout); kube-apiserver
 * passes it on as a 500 Status (registry/store.ts toStatusError).
 */
export const NO_QUORUM_MESSAGE = 'etcdserver: request timed out';
/** How long the NATS server has to answer a ping before a write's missing ack counts as the server gone rather than its quorum. */
const SERVER_ALIVE_MS = 1_000;

export class StorageError extends Error {
  override name = 'StorageError';
  constructor(
    readonly kind: CasFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const WRONG_LAST_SEQUENCE = new Set([10071, 10164]);

/** Classifies a NATS/JetStream error (pure, for tests too). */
export function classifyNatsError(err: unknown, conditional: 'create' | 'update'): StorageError {
  const e = err as { code?: unknown; message?: string; name?: string };
  const msg = e?.message ?? String(err);
  if ((typeof e?.code === 'number' && WRONG_LAST_SEQUENCE.has(e.code)) || /wrong last sequence/i.test(msg)) {
    return new StorageError(conditional === 'create' ? 'exists' : 'stale', msg, { cause: err });
  }
  if (/max_payload|maximum payload|message size exceeds|MAX_PAYLOAD/i.test(msg)) {
    return new StorageError('too-large', msg, { cause: err });
  }
  if (/invalid key/i.test(msg)) return new StorageError('bad-key', msg, { cause: err });
  // The server answered that no one serves the stream: its replicas have no leader (a NATS cluster without a majority).
  if (/no responders/i.test(msg)) return new StorageError('no-quorum', NO_QUORUM_MESSAGE, { cause: err });
  return new StorageError('unavailable', msg, { cause: err });
}

/** A key's newest message: its revision, and whether it is a value (else a delete marker). */
export interface LastMessage {
  revision: number;
  live: boolean;
}

export interface StoredValue {
  value: Uint8Array;
  revision: number;
}

/** The etcd-shaped operations the registry uses, over one KV bucket. */
/** KV's key rule (nats.js validateKey): checked before a write as the library does. */
const VALID_KEY = /^[-/=.\w]+$/;

export function checkKey(key: string): void {
  if (key.startsWith('.') || key.endsWith('.') || !VALID_KEY.test(key)) throw new StorageError('bad-key', `invalid key: ${key}`);
}

export class KvStorage {
  private readonly publisher: PipelinedPublisher;

  private constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly kv: KV,
    readonly bucket: string,
    private readonly tracing?: Tracing,
  ) {
    this.publisher = new PipelinedPublisher(nc, 5_000, APISERVER_NATS_IDENTITY.inboxPrefix);
  }

  /**
   * A conditional write of `key` (etcd's txn on mod_revision): the new revision.
   * Under a sampled KV span (`span`) the message carries its `traceparent`, so
   * the watch cache's processing of the entry joins the request's trace.
   */
  private put(key: string, value: Uint8Array, expected: number, operation?: 'DEL', span?: Context): Promise<number> {
    checkKey(key);
    return this.publisher.publish(`$KV.${this.bucket}.${key}`, value, expected, operation, span && traceparentFor(span)).catch((err: unknown) => this.unacknowledged(err));
  }

  /**
   * A write without its ack: when the NATS server still answers a ping, it is
   * alive but JetStream did not commit (no majority of the stream's
   * replicas), etcd's "request timed out"; when it does not (stopped, gone),
   * the error stays as it is (504 Timeout, as when etcd does not answer).
   */
  private async unacknowledged(err: unknown): Promise<never> {
    if (err instanceof Error && /waiting for the JetStream ack/.test(err.message) && (await this.serverAlive())) {
      throw new StorageError('no-quorum', NO_QUORUM_MESSAGE, { cause: err });
    }
    throw err;
  }

  /** Whether the NATS server answers a ping within SERVER_ALIVE_MS. */
  private serverAlive(): Promise<boolean> {
    if (this.nc.isClosed()) return Promise.resolve(false);
    return Promise.race([
      this.nc.rtt().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((r) => setTimeout(() => r(false), SERVER_ALIVE_MS).unref?.()),
    ]);
  }

  /** Runs one KV call, in a child span of the request (`parent`, else the active context) when tracing is on. */
  private traced<T>(op: KvOperation, key: string, fn: (span?: Context) => Promise<T>, expectedRevision: number | undefined, parent: Context | undefined): Promise<T> {
    if (!this.tracing?.enabled) return fn();
    return storageSpan(this.tracing, { op, bucket: this.bucket, key, ...(expectedRevision !== undefined ? { expectedRevision } : {}) }, fn, parent);
  }

  static async open(opts: KvStorageOptions): Promise<KvStorage> {
    // Reconnect forever: the apiserver outlives NATS restarts as it outlives etcd's.
    const nc = await connect({
      // A comma list names every member of a NATS cluster (as --etcd-servers lists every etcd member).
      servers: opts.url
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean),
      name: opts.name ?? 'kube-apiserver',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      waitOnFirstConnect: true,
      pingInterval: 5_000,
      // No per-request Error objects for async stack traces: they cost ~7% of a create.
      noAsyncTraces: true,
      // Its certificate maps to the NATS user allowed the bucket; replies come under its own inbox prefix.
      ...natsAuthOptions(APISERVER_NATS_IDENTITY, opts.tls),
    });
    const js = jetstream(nc, { timeout: 5_000 });
    const kvm = new Kvm(js);
    // history 1: only the latest value per key, as etcd after compaction;
    // the watch cache keeps the event window itself.
    const kv = await kvm.create(opts.bucket, { history: 1, storage: 'file' as never });
    const store = new KvStorage(nc, js, kv, opts.bucket, opts.tracing);
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === 'disconnect') store.connected = false;
        if (s.type === 'reconnect') store.connected = true;
        opts.onStatus?.(s.type, (s as { data?: unknown }).data);
      }
    })().catch(() => undefined);
    return store;
  }

  /** The stream API client of lastRevision and last, made on first use. */
  private jsm: JetStreamManager | undefined;

  /** False between a disconnect and the next reconnect: writes fail fast (504 Timeout, as when etcd does not answer) instead of queueing. */
  connected = true;

  private ensureConnected(): void {
    if (!this.connected || this.nc.isClosed()) throw new StorageError('unavailable', 'not connected to NATS (reconnecting)');
  }

  /**
   * A core NATS message outside the object store (the write records of
   * `kubelab trace --all-components`): fire and forget, dropped while
   * disconnected, never an error for the caller.
   */
  publishRecord(subject: string, data: string): void {
    if (!this.connected || this.nc.isClosed()) return;
    try {
      // As bytes: Buffer.from takes a slice of a shared pool, the library would encode into a fresh array.
      this.nc.publish(subject, Buffer.from(data));
    } catch {
      // a record is telemetry: losing one fails nothing
    }
  }

  /** Largest value NATS accepts on this connection (server max_payload). */
  maxPayload(): number {
    return this.nc.info?.max_payload ?? 1024 * 1024;
  }

  isConnected(): boolean {
    return this.connected && !this.nc.isClosed();
  }

  /** The newest revision in the bucket (the stream's last sequence). */
  async lastRevision(): Promise<number> {
    const si = await (await this.manager()).streams.info(`KV_${this.bucket}`);
    return si.state.last_seq;
  }

  /**
   * One manager, without the account-info probe: that request needs JetStream's meta leader, which after a majority
   * restart may be elected seconds after the stream's own leader, and the watch cache's stall check must not wait for it.
   */
  private async manager(): Promise<JetStreamManager> {
    return (this.jsm ??= await jetstreamManager(this.nc, { checkAPI: false, timeout: 5_000 }));
  }

  /**
   * `parent`: the request's trace context (RequestContext.traceContext).
   * `known`: the key's newest message as the watch cache has it, if any.
   *
   * Only proposals the stream leader can check before proposing (an expected
   * revision above 0), or that should succeed, are sent: a create the leader
   * fails only when applying it counts in each replica's failure tally, which
   * replicas of nats-server before 2.11 can disagree on after a restart, and
   * then number every later message differently (nats-server #6194).
   */
  create(key: string, value: Uint8Array, parent?: Context, known?: LastMessage): Promise<number> {
    return this.traced(
      'create',
      key,
      (span) => {
        // A key the cache knows nothing of (nearly every create): one conditional publish, no async step before it.
        if (!known) {
          try {
            this.ensureConnected();
            return this.put(key, value, 0, undefined, span).catch((err: unknown) => this.createAgain(key, value, err, span));
          } catch (err) {
            return Promise.reject(err as Error);
          }
        }
        return (async () => {
          this.ensureConnected();
          const last = known.live ? await this.last(key) : known;
          if (last?.live) throw new StorageError('exists', `key exists: ${key}`);
          return this.put(key, value, last?.revision ?? 0, undefined, span).catch((err: unknown) => this.createAgain(key, value, err, span));
        })();
      },
      undefined,
      parent,
    );
  }

  /**
   * A create whose conditional publish failed: when the key's newest message
   * was not what the cache said (a live value, AlreadyExists; a delete
   * marker; replaced by compare-and-swap; or none at all, a remembered marker
   * purged since), asks for it and tries once more.
   */
  private async createAgain(key: string, value: Uint8Array, err: unknown, span: Context | undefined): Promise<number> {
    const e = err instanceof StorageError ? err : classifyNatsError(err, 'create');
    if (e.kind !== 'exists') throw e;
    const last = await this.last(key);
    if (last?.live) throw new StorageError('exists', `key exists: ${key}`);
    try {
      return await this.put(key, value, last?.revision ?? 0, undefined, span);
    } catch (again) {
      throw again instanceof StorageError ? again : classifyNatsError(again, 'create');
    }
  }

  update(key: string, value: Uint8Array, revision: number, parent?: Context): Promise<number> {
    return this.traced(
      'update',
      key,
      async (span) => {
        this.ensureConnected();
        if (!(revision > 0)) throw new StorageError('stale', `update of ${key} needs a revision, got ${revision}`);
        try {
          return await this.put(key, value, revision, undefined, span);
        } catch (err) {
          throw err instanceof StorageError ? err : classifyNatsError(err, 'update');
        }
      },
      revision,
      parent,
    );
  }

  /** Deletes only if the key is still at `revision` (etcd txn on mod_revision). */
  delete(key: string, revision: number, parent?: Context): Promise<number> {
    return this.traced(
      'delete',
      key,
      async (span) => {
        this.ensureConnected();
        // Published by hand (kv.delete drops the ack) because read-your-writes
        // needs the revision of the delete marker.
        try {
          return await this.put(key, new Uint8Array(0), revision, 'DEL', span);
        } catch (err) {
          throw err instanceof StorageError ? err : classifyNatsError(err, 'update');
        }
      },
      revision,
      parent,
    );
  }

  /** The key's live value from the stream leader (etcd's linearizable read); undefined when it has none or a delete marker. */
  get(key: string, parent?: Context): Promise<StoredValue | undefined> {
    return this.traced(
      'get',
      key,
      async () => {
        const l = await this.last(key);
        return l?.live ? { value: l.value, revision: l.revision } : undefined;
      },
      undefined,
      parent,
    );
  }

  /**
   * The key's newest message as the stream leader has it: a value or a delete
   * marker, at its revision. Not a direct get, which any replica answers: a
   * follower may lag, and its revisions are the leader's only while replicas agree.
   */
  async last(key: string): Promise<(LastMessage & { value: Uint8Array }) | undefined> {
    checkKey(key);
    this.ensureConnected();
    try {
      const m = await (await this.manager()).streams.getMessage(`KV_${this.bucket}`, { last_by_subj: `$KV.${this.bucket}.${key}` });
      if (!m) return undefined;
      const op = m.header?.get('KV-Operation');
      return { revision: m.seq, live: op !== 'DEL' && op !== 'PURGE', value: m.data };
    } catch (err) {
      // No answer from a server that is alive: the stream has no leader (no majority), as a write's missing ack.
      if (err instanceof Error && /timeout/i.test(`${err.name} ${err.message}`) && (await this.serverAlive())) {
        throw new StorageError('no-quorum', NO_QUORUM_MESSAGE, { cause: err });
      }
      throw classifyNatsError(err, 'update');
    }
  }

  /** Every change after `afterRevision` (0: the current value of every key first). */
  async watch(afterRevision: number): Promise<AsyncIterable<KvWatchEntry> & { stop(): void }> {
    const opts = afterRevision > 0 ? { key: '>', include: 'history' as const, resumeFromRevision: afterRevision + 1 } : { key: '>' };
    return (await this.kv.watch(opts)) as unknown as AsyncIterable<KvWatchEntry> & { stop(): void };
  }

  async close(): Promise<void> {
    try {
      await this.nc.drain();
    } catch {
      await this.nc.close().catch(() => undefined);
    }
    this.publisher.close();
  }
}
