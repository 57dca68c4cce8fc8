// The journal reader on real files: a follower sees whole lines appended
// after it started (a torn line only once completed), carries on after
// rotation, and with `since` replays the lookback first.

import { appendFileSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendJournal, followJournal, journalDir, readJournal, type JournalRecord } from '../src/journal-source.js';

const rec = (message: string, atMs: number, id = 'kernel'): JournalRecord => ({ __REALTIME_TIMESTAMP: String(atMs * 1000), SYSLOG_IDENTIFIER: id, _TRANSPORT: 'kernel', MESSAGE: message });

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

  it('reads one identifier, oldest first, the rotated file before the live one, the last N lines', async () => {
    await appendJournal(root, rec('old', 1));
    renameSync(join(journalDir(root), 'kernel.jsonl'), join(journalDir(root), 'kernel.jsonl.1'));
    await appendJournal(root, rec('new', 3));
    await appendJournal(root, rec('other unit', 2, 'systemd'));
    expect((await readJournal(root, { identifiers: ['kernel'] })).map((r) => r.MESSAGE)).toEqual(['old', 'new']);
    expect((await readJournal(root, { identifiers: ['kernel'], lines: 1 })).map((r) => r.MESSAGE)).toEqual(['new']);
    expect((await readJournal(root, { identifiers: ['kernel'], since: 2 })).map((r) => r.MESSAGE)).toEqual(['new']);
  });

  it('follows only lines appended after it started, a torn line once it is whole, and across rotation', async () => {
    await appendJournal(root, rec('before', 1));
    const follower = followJournal(root, { identifiers: ['kernel'] }, abort.signal);
    const got = take(follower, 4);
    // Let the follower take its starting offset before appending.
    await new Promise((r) => setTimeout(r, 100));
    const file = join(journalDir(root), 'kernel.jsonl');
    const torn = JSON.stringify(rec('torn', 2));
    appendFileSync(file, torn.slice(0, 10));
    appendFileSync(file, torn.slice(10) + '\n');
    await appendJournal(root, rec('second', 3));
    await new Promise((r) => setTimeout(r, 100));
    // Written just before the rotation, read from the rotated file.
    await appendJournal(root, rec('last before rotation', 4));
    renameSync(file, `${file}.1`);
    await appendJournal(root, rec('after rotation', 5));
    expect(await got).toEqual(['torn', 'second', 'last before rotation', 'after rotation']);
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
