import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dealHand, flowHash, QueueSet, SeatPool, type Admission } from './queue-set.js';

const queued = { type: 'Queue' as const, queuing: { queues: 8, handSize: 2, queueLengthLimit: 2 } };

describe('shuffle sharding (a flow dealt its hand of queues)', () => {
  it.each([
    [0, 8, 2],
    [123456789, 128, 6],
    [flowHash('kube-controller-manager\0default'), 128, 6],
    [Number.MAX_SAFE_INTEGER, 16, 4],
  ])('hash %d: %d queues, hands of %d, all distinct and in range', (hash, deck, hand) => {
    const cards = dealHand(hash, deck, hand);
    expect(cards).toHaveLength(hand);
    expect(new Set(cards).size).toBe(hand);
    for (const c of cards) expect(c >= 0 && c < deck).toBe(true);
    expect(dealHand(hash, deck, hand)).toEqual(cards);
  });

  it('deals different flows different hands', () => {
    const hands = new Set(['jane', 'joe', 'system:node:node-1', 'system:node:node-2'].map((u) => dealHand(flowHash(`global-default\0${u}`), 128, 6).join()));
    expect(hands.size).toBe(4);
  });
});

describe('a priority level: seats, then queues', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const seat = (a: Admission | Promise<Admission>) => a as Admission & { ok: true };

  it('runs up to the limit at once, queues the next, and gives it the seat the first frees', async () => {
    const qs = new QueueSet(2, queued, { waitLimitMs: 15_000 });
    const a = seat(qs.admit('a'));
    seat(qs.admit('a'));
    expect([a.ok, qs.executingRequests]).toEqual([true, 2]);
    const third = qs.admit('a');
    expect(third).toBeInstanceOf(Promise);
    expect(qs.waitingRequests).toBe(1);
    vi.advanceTimersByTime(40);
    a.release();
    a.release(); // once only
    const got = await third;
    expect([got.ok, got.waitedMs, qs.executingRequests, qs.waitingRequests]).toEqual([true, 40, 2, 0]);
  });

  it("refuses a request whose flow's queues are full (queue-full), and one that waited past the limit (time-out)", async () => {
    const qs = new QueueSet(1, queued, { waitLimitMs: 15_000 });
    seat(qs.admit('a'));
    // Hands of 2 queues of 2 places: four of flow a wait, the fifth finds them full.
    const waiting = [1, 2, 3, 4].map(() => qs.admit('a'));
    expect(qs.admit('a')).toEqual({ ok: false, reason: 'queue-full', waitedMs: 0 });
    vi.advanceTimersByTime(15_000);
    for (const w of waiting) expect(await w).toEqual({ ok: false, reason: 'time-out', waitedMs: 15_000 });
    expect(qs.waitingRequests).toBe(0);
  });

  it('refuses at once past the limit when the level rejects (catch-all: concurrency-limit)', () => {
    const qs = new QueueSet(1, { type: 'Reject' }, { waitLimitMs: 15_000 });
    expect(qs.admit('a')).toMatchObject({ ok: true });
    expect(qs.admit('b')).toEqual({ ok: false, reason: 'concurrency-limit', waitedMs: 0 });
  });

  it("gives a quiet flow's request a seat before a busy flow's backlog (each queue a turn)", async () => {
    const qs = new QueueSet(1, { type: 'Queue', queuing: { queues: 64, handSize: 1, queueLengthLimit: 50 } }, { waitLimitMs: 15_000 });
    const running = seat(qs.admit('busy'));
    const order: string[] = [];
    const busy = [1, 2, 3].map((i) => (qs.admit('busy') as Promise<Admission>).then((a) => (order.push(`busy-${i}`), a)));
    const quiet = (qs.admit('quiet') as Promise<Admission>).then((a) => (order.push('quiet'), a));
    expect(dealHand(flowHash('busy'), 64, 1)).not.toEqual(dealHand(flowHash('quiet'), 64, 1));
    running.release();
    const first = await Promise.race([...busy, quiet]);
    (first as Admission & { ok: true }).release();
    const second = await Promise.race([...busy.slice(1), quiet]);
    (second as Admission & { ok: true }).release();
    await Promise.resolve();
    expect(order.slice(0, 2).sort()).toEqual(['busy-1', 'quiet']);
  });
});

describe('borrowing: the seats levels lend', () => {
  it("runs past a level's own seats while a lent seat is free, and gives a lent seat that comes back to the levels that wait", async () => {
    const pool = new SeatPool(1);
    const a = new QueueSet(1, queued, { waitLimitMs: 15_000, pool });
    const b = new QueueSet(1, queued, { waitLimitMs: 15_000, pool });
    const aOwn = a.admit('a') as Admission & { ok: true };
    const aBorrowed = a.admit('a') as Admission & { ok: true };
    expect([aOwn.ok, aBorrowed.ok, pool.inUse]).toEqual([true, true, 1]);
    const aWaits = a.admit('a') as Promise<Admission>;
    expect(b.admit('b')).toMatchObject({ ok: true });
    const bWaits = b.admit('b') as Promise<Admission>;
    expect([a.waitingRequests, b.waitingRequests]).toEqual([1, 1]);
    // The lent seat comes back: a's waiting request takes it first, then b's gets it when that one ends.
    aBorrowed.release();
    const aNext = (await aWaits) as Admission & { ok: true };
    expect([aNext.ok, a.executingRequests, b.waitingRequests, pool.inUse]).toEqual([true, 2, 1, 1]);
    aNext.release();
    expect(await bWaits).toMatchObject({ ok: true });
    expect([a.executingRequests, b.executingRequests, pool.inUse]).toEqual([1, 2, 1]);
    // A seat of its own coming back never goes to another level.
    aOwn.release();
    expect([a.executingRequests, pool.inUse]).toEqual([0, 1]);
  });
});
