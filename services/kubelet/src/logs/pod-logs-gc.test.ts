import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evictPodLogsDirectories, podUidFromLogsDirectory } from './pod-logs-gc.js';

describe('pod log directories', () => {
  it.each([
    ['default_web_1234-abcd', '1234-abcd'],
    ['kube-system_kube-proxy-x_9f', '9f'],
  ])('%s belongs to pod %s', (name, uid) => {
    expect(podUidFromLogsDirectory(name)).toBe(uid);
  });

  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'kubelab-podlogs-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('removes the directories of pods that are gone, with their files, and keeps the others', async () => {
    for (const d of ['default_web_u1', 'default_old_u2']) {
      mkdirSync(join(root, d, 'web'), { recursive: true });
      writeFileSync(join(root, d, 'web', '0.log'), 'x');
    }
    expect(await evictPodLogsDirectories(root, (uid) => uid === 'u1')).toEqual(['default_old_u2']);
    expect(readdirSync(root)).toEqual(['default_web_u1']);
  });

  it('a missing root is nothing to do', async () => {
    expect(await evictPodLogsDirectories(join(root, 'nope'), () => false)).toEqual([]);
  });
});
