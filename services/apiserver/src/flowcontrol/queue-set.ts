// One Limited priority level's seats and queues (upstream: apiserver/pkg/
// util/flowcontrol/fairqueuing/queueset). A request runs at once while the
// level has a free seat and nobody waits; else it joins the shortest of the
// queues its flow is dealt (shuffle sharding: a flow's hand of `handSize`
// queues out of `queues`, so one noisy flow fills few queues), and a freed
// seat goes to the next non-empty queue in turn. A full queue, or a wait past
// the limit, is a rejection (429). Upstream orders dispatch by each queue's
// virtual finish time; the round robin here gives each waiting queue a turn
// too, without accounting for requests' durations. Past its own seats a
// level borrows from the seats all levels lend (SeatPool) while any is free.

/** A level's limit response with every default filled in (upstream's LimitResponse after defaulting). */
export type LevelResponse = { type: 'Queue'; queuing: { queues: number; handSize: number; queueLengthLimit: number } } | { type: 'Reject' };

export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out';

export type Admission = { ok: true; release(): void; waitedMs: number } | { ok: false; reason: RejectReason; waitedMs: number };

interface Waiter {
  resolve(a: Admission): void;
  queue: number;
  since: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** The `handSize` distinct queues of `deckSize` a flow's hash deals (upstream shufflesharding.Dealer), in dealing order. */
export function dealHand(hash: number, deckSize: number, handSize: number): number[] {
  const picked: number[] = [];
  let h = hash;
  for (let i = 0; i < handSize && i < deckSize; i++) {
    const span = deckSize - i;
    let card = h % span;
    h = Math.floor(h / span);
    // The card-th queue not dealt yet: step over the dealt ones below it, in ascending order.
    for (const p of [...picked].sort((x, y) => x - y)) if (card >= p) card++;
    picked.push(card);
  }
  return picked;
}

/** A 53-bit hash of a flow's key (two 32-bit FNV-1a passes), enough for hands of six out of 128. */
export function flowHash(key: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193) >>> 0;
  }
  return (b & 0x1fffff) * 0x100000000 + a;
}

export interface QueueSetOptions {
  /** Longest a request waits in a queue before its 429 (upstream: a quarter of --request-timeout, 15 s). */
  waitLimitMs: number;
  /** The lent seats this level may borrow from once its own are taken; none: it never borrows. */
  pool?: SeatPool;
  now?: () => number;
}

/**
 * The seats the Limited levels lend (each its nominal seats × lendablePercent,
 * upstream's LendableCL), taken by any level whose own seats are all in use
 * while one is free. Upstream re-divides the lendable seats among the levels
 * every 10 s by their demand; here a free lent seat goes to whoever asks
 * first, and a seat given back wakes the levels that wait.
 */
export class SeatPool {
  private used = 0;
  private readonly sets = new Set<QueueSet>();

  constructor(public capacity: number) {}

  get inUse(): number {
    return this.used;
  }

  join(set: QueueSet): void {
    this.sets.add(set);
  }

  leave(set: QueueSet): void {
    this.sets.delete(set);
  }

  take(): boolean {
    if (this.used >= this.capacity) return false;
    this.used++;
    return true;
  }

  give(): void {
    this.used--;
    for (const set of this.sets) {
      if (this.used >= this.capacity) return;
      set.dispatch();
    }
  }
}

export class QueueSet {
  private executing = 0;
  /** Seats of its own in use (the rest of `executing` are borrowed). */
  private own = 0;
  private waiting = 0;
  private readonly queues: Waiter[][];
  private next = 0;
  private readonly hands = new Map<string, number[]>();
  private readonly now: () => number;

  constructor(
    readonly concurrencyLimit: number,
    private readonly response: LevelResponse,
    private readonly opts: QueueSetOptions,
  ) {
    this.queues = response.type === 'Queue' ? Array.from({ length: response.queuing.queues }, () => []) : [];
    this.now = opts.now ?? Date.now;
    opts.pool?.join(this);
  }

  /** No more borrowing wake-ups (the level was reconfigured): its seats in use still go back where they came from. */
  retire(): void {
    this.opts.pool?.leave(this);
  }

  /** A seat of its own, else a borrowed one; undefined when neither is free. */
  private takeSeat(): 'own' | 'borrowed' | undefined {
    if (this.own < this.concurrencyLimit) return 'own';
    return this.opts.pool?.take() ? 'borrowed' : undefined;
  }

  get executingRequests(): number {
    return this.executing;
  }

  get waitingRequests(): number {
    return this.waiting;
  }

  /** A seat for one request of flow `flowKey`: at once, after a wait in a queue, or a rejection. */
  admit(flowKey: string): Admission | Promise<Admission> {
    if (this.waiting === 0) {
      const kind = this.takeSeat();
      if (kind) return this.seat(kind, 0);
    }
    if (this.response.type === 'Reject') return { ok: false, reason: 'concurrency-limit', waitedMs: 0 };
    const { queueLengthLimit, handSize } = this.response.queuing;
    const hand = this.handOf(flowKey, handSize);
    let q = hand[0]!;
    for (const c of hand) if (this.queues[c]!.length < this.queues[q]!.length) q = c;
    if (this.queues[q]!.length >= queueLengthLimit) return { ok: false, reason: 'queue-full', waitedMs: 0 };
    return new Promise<Admission>((resolve) => {
      const w: Waiter = { resolve, queue: q, since: this.now(), timer: undefined };
      w.timer = setTimeout(() => this.timeOut(w), this.opts.waitLimitMs);
      this.queues[q]!.push(w);
      this.waiting++;
    });
  }

  private handOf(flowKey: string, handSize: number): number[] {
    let hand = this.hands.get(flowKey);
    if (!hand) {
      // Flows are users or namespaces: few, but nothing bounds them; the cache starts over rather than grow.
      if (this.hands.size >= 10_000) this.hands.clear();
      hand = dealHand(flowHash(flowKey), this.queues.length, handSize);
      this.hands.set(flowKey, hand);
    }
    return hand;
  }

  private seat(kind: 'own' | 'borrowed', waitedMs: number): Admission {
    this.executing++;
    if (kind === 'own') this.own++;
    let released = false;
    return {
      ok: true,
      waitedMs,
      release: () => {
        if (released) return;
        released = true;
        this.executing--;
        if (kind === 'own') {
          this.own--;
          this.dispatch();
        } else this.opts.pool!.give();
      },
    };
  }

  /** Free seats (its own, then borrowed ones) go to waiting requests, one queue after the other. */
  dispatch(): void {
    while (this.waiting > 0) {
      const kind = this.takeSeat();
      if (!kind) return;
      let q = this.next;
      while (this.queues[q]!.length === 0) q = (q + 1) % this.queues.length;
      this.next = (q + 1) % this.queues.length;
      const w = this.queues[q]!.shift()!;
      this.waiting--;
      clearTimeout(w.timer);
      w.resolve(this.seat(kind, this.now() - w.since));
    }
  }

  private timeOut(w: Waiter): void {
    const queue = this.queues[w.queue]!;
    const i = queue.indexOf(w);
    if (i < 0) return;
    queue.splice(i, 1);
    this.waiting--;
    w.resolve({ ok: false, reason: 'time-out', waitedMs: this.now() - w.since });
  }
}
