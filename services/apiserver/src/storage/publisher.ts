// Conditional JetStream publishes, pipelined on the one NATS connection (as
// etcd's client pipelines its requests on one gRPC stream): every write
// carries `Nats-Expected-Last-Subject-Sequence` (etcd's mod_revision compare)
// and a reply subject under one shared inbox subscription; the PubAck's `seq`
// is the new revision. The library's js.publish does the same per request
// with a private reply subscription slot, a timer and several promises each,
// which cost more CPU than the write itself at thousands of writes a second.

import { createInbox, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from '@nats-io/transport-node';

/** A JetStream API error from a PubAck (err_code 10071 is "wrong last sequence"). */
export class PubAckError extends Error {
  override name = 'PubAckError';
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

interface Pending {
  resolve(seq: number): void;
  reject(err: Error): void;
  deadline: number;
}

const OK_ACK = /^\{"stream":"[^"\\]*",(?:"domain":"[^"\\]*",)?"seq":(\d{1,15})\}$/;

const STREAM_HEAD = Buffer.from('{"stream":"', 'latin1');
const SEQ_KEY = Buffer.from('","seq":', 'latin1');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE_BRACE = 0x7d;

/** The seq of the usual ack, `{"stream":"S","seq":N}`, read from its bytes (no string, no regex); -1 for any other ack. */
function plainAckSeq(b: Uint8Array): number {
  const n = b.length;
  if (n < STREAM_HEAD.length + SEQ_KEY.length + 2 || b[n - 1] !== CLOSE_BRACE) return -1;
  for (let i = 0; i < STREAM_HEAD.length; i++) if (b[i] !== STREAM_HEAD[i]) return -1;
  let i = STREAM_HEAD.length;
  while (i < n && b[i] !== QUOTE && b[i] !== BACKSLASH) i++;
  for (let j = 0; j < SEQ_KEY.length; j++) if (b[i + j] !== SEQ_KEY[j]) return -1;
  i += SEQ_KEY.length;
  const digits = i;
  let seq = 0;
  for (; i < n - 1 && b[i]! >= 0x30 && b[i]! <= 0x39; i++) seq = seq * 10 + (b[i]! - 0x30);
  return i === n - 1 && i > digits && i - digits <= 15 ? seq : -1;
}

/** What a PubAck says (pure, for tests): the stream sequence, or the error. */
export function parsePubAck(data: Uint8Array, status?: number): number | Error {
  if (status === 503) return new Error('no responders: JetStream is not available');
  if (status !== undefined && status >= 300) return new Error(`JetStream publish failed with status ${status}`);
  const plain = plainAckSeq(data);
  if (plain >= 0) return plain;
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
  // The usual ack, `{"stream":"KV_x","seq":N}` (maybe with "domain"): its seq read directly.
  const m = OK_ACK.exec(text);
  if (m) return Number(m[1]);
  let ack: { seq?: unknown; error?: { err_code?: number; code?: number; description?: string } };
  try {
    ack = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')) as typeof ack;
  } catch (err) {
    return new Error(`invalid JetStream ack: ${(err as Error).message}`);
  }
  if (ack.error) return new PubAckError(ack.error.description ?? 'JetStream error', ack.error.err_code ?? ack.error.code ?? 0);
  if (typeof ack.seq !== 'number') return new Error('invalid JetStream ack: no seq');
  return ack.seq;
}

/**
 * The NATS header block of a conditional write (pure, for tests). The
 * library's headers() builds a Map and re-encodes it per message; the block
 * is fixed text, and the publish path only calls its encode().
 */
export function writeHeaders(expected: number, operation?: 'DEL', traceparent?: string): Uint8Array {
  return Buffer.from(
    `NATS/1.0\r\nNats-Expected-Last-Subject-Sequence: ${expected}\r\n${operation ? `KV-Operation: ${operation}\r\n` : ''}${traceparent ? `traceparent: ${traceparent}\r\n` : ''}\r\n`,
    'latin1',
  );
}

/** A pre-encoded header block in the shape nats.js's publish reads (it calls encode() only). */
function rawHeaders(block: Uint8Array): MsgHdrs {
  return { encode: () => block } as unknown as MsgHdrs;
}

/** Every create carries the same header block. */
const CREATE_HEADERS = rawHeaders(writeHeaders(0));

export class PipelinedPublisher {
  private readonly inbox: string;
  private sub: Subscription | undefined;
  private readonly pending = new Map<string, Pending>();
  private next = 0;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly timeoutMs: number,
    /** The connection's inboxPrefix: a secured NATS lets each user subscribe under its own prefix only. */
    inboxPrefix?: string,
  ) {
    this.inbox = createInbox(inboxPrefix);
  }

  private ensureSubscribed(): void {
    if (this.sub) return;
    const skip = this.inbox.length + 1;
    this.sub = this.nc.subscribe(`${this.inbox}.*`, {
      callback: (_err, msg: Msg) => {
        const id = msg.subject.slice(skip);
        const p = this.pending.get(id);
        if (!p) return; // timed out already
        this.pending.delete(id);
        const out = parsePubAck(msg.data, msg.headers?.hasError ? msg.headers.code : undefined);
        if (typeof out === 'number') p.resolve(out);
        else p.reject(out);
      },
    });
    // One timer for every outstanding write instead of one per write.
    this.sweeper = setInterval(() => this.sweep(Date.now()), Math.min(1_000, this.timeoutMs));
    this.sweeper.unref?.();
  }

  /** Fails writes whose ack is overdue (the request timeout of js.publish). */
  sweep(now: number): void {
    for (const [id, p] of this.pending) {
      if (p.deadline <= now) {
        this.pending.delete(id);
        p.reject(new Error(`timed out after ${this.timeoutMs} ms waiting for the JetStream ack`));
      }
    }
  }

  /**
   * Publishes `data` to `subject` if its last sequence is `expected` (0: the subject has no message); resolves to the new sequence.
   * `traceparent` (a sampled write's KV span) travels in the headers, stored with the entry (W3C trace context in NATS headers).
   */
  publish(subject: string, data: Uint8Array, expected: number, operation?: 'DEL', traceparent?: string): Promise<number> {
    this.ensureSubscribed();
    return new Promise<number>((resolve, reject) => {
      const id = (this.next++).toString(36);
      const h = expected === 0 && !operation && !traceparent ? CREATE_HEADERS : rawHeaders(writeHeaders(expected, operation, traceparent));
      this.pending.set(id, { resolve, reject, deadline: Date.now() + this.timeoutMs });
      try {
        this.nc.publish(subject, data, { reply: `${this.inbox}.${id}`, headers: h });
      } catch (err) {
        this.pending.delete(id);
        reject(err as Error);
      }
    });
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    try {
      this.sub?.unsubscribe();
    } catch {
      // the connection is closed already: nothing to unsubscribe from
    }
    this.sub = undefined;
    for (const p of this.pending.values()) p.reject(new Error('storage connection closed'));
    this.pending.clear();
  }
}
