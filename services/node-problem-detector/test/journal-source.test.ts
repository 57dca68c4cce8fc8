// The monitors' journal source on real files: with `since`, what was written
// since then comes first, then new lines (reading, rotation and torn lines
// are @kubelab/systemd's, tested there).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendJournal, followJournal, type JournalRecord } from '../src/journal-source.js';

const rec = (message: string, atMs: number, id = 'kernel'): JournalRecord => ({
  __REALTIME_TIMESTAMP: String(atMs * 1000),
  _HOSTNAME: 'node-1',
  SYSLOG_IDENTIFIER: id,
  PRIORITY: '6',
  _TRANSPORT: 'kernel',
  MESSAGE: message,
});

/** Collects the first n messages a follower yields. */
async function take(it: AsyncGenerator<JournalRecord>, n: number): Promise<string[]> {
  const out: string[] = [];
  for await (const r of it) {
    out.push(r.MESSAGE);
    if (out.length === n) break;
  }
  return out;
}

describe('journal source', () => {
  let root: string;
  let abort: AbortController;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'npd-journal-'));
    abort = new AbortController();
  });
  afterEach(() => {
    abort.abort();
    rmSync(root, { recursive: true, force: true });
  });

  it('with since, replays what was written since then before new lines', async () => {
    await appendJournal(root, rec('too old', 1000));
    await appendJournal(root, rec('in lookback', 5000));
    const got = take(followJournal(root, { identifiers: ['kernel'], since: 4000 }, abort.signal), 2);
    await new Promise((r) => setTimeout(r, 100));
    await appendJournal(root, rec('new', 6000));
    expect(await got).toEqual(['in lookback', 'new']);
  });

  it('waits for a journal directory that does not exist yet', async () => {
    const got = take(followJournal(root, { identifiers: ['systemd'] }, abort.signal), 1);
    await new Promise((r) => setTimeout(r, 100));
    await appendJournal(root, rec('Started kubelet.service - kubelet: The Kubernetes Node Agent.', 1, 'systemd'));
    expect(await got).toEqual(['Started kubelet.service - kubelet: The Kubernetes Node Agent.']);
  });
});
