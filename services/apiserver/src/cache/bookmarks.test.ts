import { describe, expect, it } from 'vitest';
import { BOOKMARK_FREQUENCY_MS, nextBookmarkTime } from './bookmarks.js';

describe('nextBookmarkTime', () => {
  const now = 1_000_000;
  it.each([
    ['no deadline: a frequency from now', undefined, now + BOOKMARK_FREQUENCY_MS],
    ['a deadline far off: still a frequency from now', now + 10 * 60_000, now + BOOKMARK_FREQUENCY_MS],
    ['a deadline within the frequency: 2 s before it', now + 30_000, now + 28_000],
    ['a deadline exactly 2 s away: now', now + 2_000, now],
    ['a deadline under 2 s away: none', now + 1_500, undefined],
    ['a deadline passed: none', now - 1, undefined],
  ])('%s', (_name, deadline, want) => {
    expect(nextBookmarkTime(now, BOOKMARK_FREQUENCY_MS, deadline)).toBe(want);
  });
});
