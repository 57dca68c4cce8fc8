import { describe, expect, it, vi } from 'vitest';
import { PodWorkers, SyncSlots } from './pod-workers.js';

/** A sync that records each run and waits until released. */
function gatedSync() {
  const runs: { uid: string; aborted: boolean }[] = [];
  let release: (() => void) | undefined;
  const workers: PodWorkers = new PodWorkers(
    async (uid) => {
      runs.push({ uid, aborted: !!workers.terminationSignal(uid)?.aborted });
      await new Promise<void>((r) => (release = r));
    },
    () => {},
  );
  return { workers, runs, release: () => release?.() };
}

describe('PodWorkers', () => {
  it('a termination request aborts the running sync at once and is followed by one more sync', async () => {
    const { workers, runs, release } = gatedSync();
    workers.update('u1');
    await Promise.resolve();
    const signal = workers.terminationSignal('u1')!;
    expect(signal.aborted).toBe(false);
    // A probe result or relist while the sync runs: coalesced, nothing cancelled.
    workers.update('u1');
    expect(signal.aborted).toBe(false);
    workers.update('u1', { terminate: true });
    expect(signal.aborted).toBe(true);
    release();
    await new Promise((r) => setImmediate(r));
    expect(runs).toEqual([
      { uid: 'u1', aborted: false },
      { uid: 'u1', aborted: true },
    ]);
    release();
    await workers.whenIdle();
    // Once terminating, always terminating: later plain updates do not reset it.
    workers.update('u1');
    expect(workers.terminationSignal('u1')!.aborted).toBe(true);
    release();
    await workers.whenIdle();
  });

  it('terminating one pod leaves the others alone', async () => {
    const { workers, release } = gatedSync();
    workers.update('a');
    workers.update('b');
    workers.update('a', { terminate: true });
    expect(workers.terminationSignal('a')!.aborted).toBe(true);
    expect(workers.terminationSignal('b')!.aborted).toBe(false);
    expect(workers.terminationSignal('c')).toBeUndefined();
    workers.stop();
    release();
  });
});

describe('SyncSlots (pod sync admission shared by the kubelets of one hollow worker)', () => {
  const flush = () => new Promise((r) => setImmediate(r));

  it('lets `capacity` syncs run at once and starts the next in arrival order as each ends', async () => {
    const slots = new SyncSlots(2);
    const started: string[] = [];
    const releases = new Map<string, () => void>();
    const take = (name: string) =>
      void slots.acquire().then((release) => {
        started.push(name);
        releases.set(name, release);
      });
    for (const n of ['a', 'b', 'c', 'd']) take(n);
    await flush();
    expect(started).toEqual(['a', 'b']);
    expect(slots.queued).toBe(2);
    releases.get('b')!();
    releases.get('b')!(); // a second release gives back nothing more
    await flush();
    expect(started).toEqual(['a', 'b', 'c']);
    expect(slots.queued).toBe(1);
  });

  it('takes a slot back from a sync that holds it longer than holdMs', async () => {
    vi.useFakeTimers();
    try {
      const slots = new SyncSlots(1, () => true, 1, 2_000);
      const started: string[] = [];
      void slots.acquire().then(() => started.push('waiting out a grace period'));
      void slots.acquire().then(() => started.push('next'));
      await vi.advanceTimersByTimeAsync(1_999);
      expect(started).toEqual(['waiting out a grace period']);
      await vi.advanceTimersByTimeAsync(1);
      expect(started).toEqual(['waiting out a grace period', 'next']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('admits up to the roomy limit while the process keeps up, only `capacity` while it lags', async () => {
    let lagging = false;
    const slots = new SyncSlots(1, () => lagging, 2);
    const started: string[] = [];
    const releases: (() => void)[] = [];
    const take = (name: string) =>
      void slots.acquire().then((release) => {
        started.push(name);
        releases.push(release);
      });
    for (const n of ['a', 'b', 'c', 'd']) take(n);
    await flush();
    expect(started).toEqual(['a', 'b']);
    // Lagging: one running at most, so a slot coming back lets no one in while two still run.
    lagging = true;
    releases[0]!();
    await flush();
    expect(started).toEqual(['a', 'b']);
    // Caught up: room for two again.
    lagging = false;
    slots.admit();
    await flush();
    expect(started).toEqual(['a', 'b', 'c']);
    expect(slots.queued).toBe(1);
  });

  /** PodWorkers recording the pods they sync, behind a one-slot SyncSlots whose slot the test holds until it calls hold(). */
  async function workersBehindHeldSlot() {
    const slots = new SyncSlots(1);
    const hold = await slots.acquire();
    const synced: string[] = [];
    const workers = new PodWorkers(
      async (uid) => {
        synced.push(uid);
      },
      () => {},
      Date.now,
      slots,
    );
    return { slots, hold, synced, workers };
  }

  it('PodWorkers with slots: updates that come while a pod waits for its turn are in the sync it gets, not one more', async () => {
    const { hold, synced, workers } = await workersBehindHeldSlot();
    workers.update('a');
    workers.update('a');
    workers.update('a');
    await flush();
    expect(synced).toEqual([]);
    hold();
    await workers.whenIdle();
    expect(synced).toEqual(['a']);
  });

  it('PodWorkers with slots: a pod still waiting when the workers stop never syncs and gives its turn back', async () => {
    const { slots, hold, synced, workers } = await workersBehindHeldSlot();
    workers.update('a');
    await flush();
    workers.stop();
    hold();
    await workers.whenIdle();
    expect(synced).toEqual([]);
    expect(slots.queued).toBe(0);
    // The turn came back: another taker starts at once.
    let next = false;
    void slots.acquire().then(() => (next = true));
    await flush();
    expect(next).toBe(true);
  });

  it('PodWorkers with slots: a pod being stopped goes ahead of the pods waiting to start', async () => {
    const { hold, synced, workers } = await workersBehindHeldSlot();
    workers.update('start-1');
    workers.update('start-2');
    workers.update('doomed', { terminate: true });
    await flush();
    hold();
    await workers.whenIdle();
    expect(synced).toEqual(['doomed', 'start-1', 'start-2']);
  });

  it('a slot the hold timer took back is not given back twice when its sync ends', async () => {
    vi.useFakeTimers();
    try {
      const slots = new SyncSlots(1, () => true, 1, 2_000);
      const slow = await slots.acquire();
      await vi.advanceTimersByTimeAsync(2_000); // taken back: room for one
      const second = await slots.acquire();
      slow(); // the slow sync ends now: nothing more to give back
      let third = false;
      void slots.acquire().then(() => (third = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(third).toBe(false);
      second();
      await vi.advanceTimersByTimeAsync(0);
      expect(third).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('PodWorkers with slots: the pods of many kubelets share them, each pod still syncs', async () => {
    const slots = new SyncSlots(1);
    let running = 0;
    let most = 0;
    const synced: string[] = [];
    const kubelets = [0, 1].map(
      () =>
        new PodWorkers(
          async (uid) => {
            running++;
            most = Math.max(most, running);
            await flush();
            synced.push(uid);
            running--;
          },
          () => {},
          Date.now,
          slots,
        ),
    );
    kubelets[0]!.update('a');
    kubelets[1]!.update('b');
    kubelets[0]!.update('c');
    await Promise.all(kubelets.map((k) => k.whenIdle()));
    expect(synced.sort()).toEqual(['a', 'b', 'c']);
    expect(most).toBe(1);
  });
});
