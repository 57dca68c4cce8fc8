import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DATA_LINK_POLL_MS, copyMounts, dataVersion, followDataLink } from './mounts.js';

/** A projected volume as the kubelet's atomic writer lays it out: ..<ts>/files, ..data → ..<ts>, file → ..data/file. */
function projectedVolume(root: string, version: string, files: Record<string, string>): void {
  mkdirSync(join(root, version), { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(root, version, name), content);
  symlinkSync(version, join(root, '..data_tmp'));
  renameSync(join(root, '..data_tmp'), join(root, '..data'));
  for (const name of Object.keys(files)) {
    try {
      symlinkSync(join('..data', name), join(root, name));
    } catch {
      // already linked by an earlier version
    }
  }
}

describe('a projected volume followed by the runtime', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('reports a swap of ..data at once (no poll), and the copy then has the new content', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kubelab-projected-'));
    dirs.push(root);
    projectedVolume(root, '..2026_12_04_13_00_00.1', { greeting: 'hello' });
    expect(dataVersion(root)).toBe('..2026_12_04_13_00_00.1');
    const swaps: number[] = [];
    const t0 = performance.now();
    const stop = followDataLink(root, () => swaps.push(performance.now() - t0));
    try {
      projectedVolume(root, '..2026_12_04_13_00_01.2', { greeting: 'updated' });
      const deadline = Date.now() + 2000;
      while (!swaps.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      expect(swaps.length).toBeGreaterThan(0);
      // Well under the 1 s poll used where the directory cannot be watched.
      expect(swaps[0]).toBeLessThan(500);
      expect(dataVersion(root)).toBe('..2026_12_04_13_00_01.2');
      expect(copyMounts([{ hostPath: root, containerPath: '/etc/config' }], () => {})).toEqual({ '/etc/config/greeting': 'updated' });
    } finally {
      stop();
    }
  });

  it('a directory that cannot be watched is read every second instead, until stopped', () => {
    vi.useFakeTimers();
    try {
      let reads = 0;
      const stop = followDataLink(join(tmpdir(), 'kubelab-no-such-volume-dir'), () => reads++);
      vi.advanceTimersByTime(DATA_LINK_POLL_MS * 2.5);
      expect(reads).toBe(2);
      stop();
      vi.advanceTimersByTime(DATA_LINK_POLL_MS * 3);
      expect(reads).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
