import { describe, expect, it } from 'vitest';
import { PodWorkers } from './pod-workers.js';

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
