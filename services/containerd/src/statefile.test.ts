import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StateFile, writeDelay } from './statefile.js';

describe('state file write pacing', () => {
  it('waits delayMs after a quiet spell, and keeps writes minIntervalMs apart in a burst', () => {
    expect(writeDelay(10_000, Number.NEGATIVE_INFINITY, 20, 250)).toBe(20);
    expect(writeDelay(10_000, 9_000, 20, 250)).toBe(20);
    expect(writeDelay(10_000, 9_900, 20, 250)).toBe(150);
    expect(writeDelay(10_000, 10_000, 20, 250)).toBe(250);
  });

  describe('on disk', () => {
    let dir: string;
    let state: { n: number };
    let writes: number;
    let file: StateFile<{ n: number }>;
    const onDisk = () => JSON.parse(readFileSync(file.path, 'utf8')) as { n: number };
    beforeEach(() => {
      vi.useFakeTimers({ now: 1_000_000 });
      dir = mkdtempSync(join(tmpdir(), 'kubelab-statefile-'));
      state = { n: 0 };
      writes = 0;
      file = new StateFile(
        dir,
        () => (writes++, { ...state }),
        20,
        (e) => {
          throw e;
        },
        250,
      );
    });
    afterEach(() => {
      vi.useRealTimers();
      rmSync(dir, { recursive: true, force: true });
    });

    it('writes a burst of changes a few times, ending with the latest state', async () => {
      // 100 changes, one every 10 ms (a burst of pod starts): one second.
      for (let i = 1; i <= 100; i++) {
        state.n = i;
        file.touch();
        vi.advanceTimersByTime(10);
        await file.settled();
      }
      vi.advanceTimersByTime(250);
      await file.settled();
      expect(onDisk()).toEqual({ n: 100 });
      // The first after 20 ms, then every 250 ms: 5 writes instead of 50.
      expect(writes).toBe(5);
    });

    it('writes a lone change after delayMs, and flush writes at once', async () => {
      state.n = 1;
      file.touch();
      vi.advanceTimersByTime(19);
      await file.settled();
      expect(file.read()).toBeUndefined();
      vi.advanceTimersByTime(1);
      await file.settled();
      expect(onDisk()).toEqual({ n: 1 });
      state.n = 2;
      file.touch();
      file.flush();
      expect(onDisk()).toEqual({ n: 2 });
      // The flushed change does not cause another write later.
      vi.advanceTimersByTime(1000);
      await file.settled();
      expect(writes).toBe(2);
    });

    it('a paced write still under way when flush writes newer state does not overwrite it; a change meanwhile is written after', async () => {
      state.n = 1;
      file.touch();
      vi.advanceTimersByTime(20); // the paced write of n=1 starts, off the event loop
      state.n = 2;
      file.touch();
      vi.advanceTimersByTime(250); // due while n=1 is being written: waits for it
      state.n = 3;
      file.flush(); // at once: n=3 in place before the paced write ends
      expect(onDisk()).toEqual({ n: 3 });
      await file.settled();
      expect(onDisk()).toEqual({ n: 3 });
      vi.advanceTimersByTime(250);
      await file.settled();
      expect(onDisk()).toEqual({ n: 3 });
      expect(readdirSync(dir)).toEqual(['kubelab-cri-state.json']);
    });

    it('removes the snapshots a stopped runtime was still writing', () => {
      writeFileSync(join(dir, 'kubelab-cri-state.json.tmp-7'), '{"n":');
      new StateFile(dir, () => state);
      expect(readdirSync(dir)).toEqual([]);
    });
  });
});
