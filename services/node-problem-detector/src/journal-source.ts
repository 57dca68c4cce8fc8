// The node's journal as the monitors read it (/dev/kmsg's and journald's
// role): @kubelab/systemd's reader and follower, plus the lookback upstream's
// log watchers start with — entries since `since` first, then new ones.

import { followJournal as followNew, readJournal, type JournalFilter, type JournalRecord } from '@kubelab/systemd';

export { appendJournal, journalDir, readJournal, type JournalFilter, type JournalRecord } from '@kubelab/systemd';

/** Realtime timestamp of a record in ms since the epoch. */
export function recordTimeMs(r: JournalRecord): number {
  return Number(r.__REALTIME_TIMESTAMP) / 1000;
}

/**
 * New entries matching the filter as they are appended; with `since`, the
 * entries already written at or after it come first. The follower takes the
 * files' ends before the lookback is read, so nothing falls between the two.
 */
export async function* followJournal(root: string, filter: Omit<JournalFilter, 'lines'>, signal: AbortSignal): AsyncGenerator<JournalRecord> {
  const live = followNew(root, filter, signal);
  if (filter.since !== undefined) yield* await readJournal(root, filter);
  yield* live;
}
