// When an idle watcher hears a BOOKMARK (upstream's cacher.go and
// cache_watcher.go: a bookmark timer
// ticks about every second, and each watcher that asked for bookmarks is due
// one a bookmark frequency — one minute — after its last, or two seconds
// before its watch times out, whichever comes first). A bookmark lets a
// watcher resume from a recent revision; one per watcher per tick would be
// sixty times upstream's traffic for no more freshness than a reconnect needs.

/** Upstream's defaultBookmarkFrequency. */
export const BOOKMARK_FREQUENCY_MS = 60_000;

/** How long before its deadline a watcher gets its last bookmark (upstream: deadline − 2 s). */
const BEFORE_DEADLINE_MS = 2_000;

/**
 * The time (ms) a watcher's next periodic bookmark is due: `frequencyMs` from
 * `now`, or 2 s before `deadline` if that is sooner; undefined once even that
 * has passed (upstream cacheWatcher.nextBookmarkTime).
 */
export function nextBookmarkTime(now: number, frequencyMs: number, deadline: number | undefined): number | undefined {
  const heartbeat = now + frequencyMs;
  if (deadline === undefined) return heartbeat;
  const due = Math.min(heartbeat, deadline - BEFORE_DEADLINE_MS);
  return due < now ? undefined : due;
}
