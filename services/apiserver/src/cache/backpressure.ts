// Backpressure for watch transports: a watch takes no more events from its
// watcher while the client's connection is not drained, so a client that
// does not read lets the watcher's buffer fill and the watcher is closed
// (upstream: the cacheWatcher's buffer, then termination) instead of the
// apiserver buffering every event for the socket.

import type { EventEmitter } from 'node:events';

/** Waits until `stream` drained: true; false if one of `closeEvents` fired or the watch ended first. */
export type DrainWait = (stream: EventEmitter & { destroyed?: boolean }, closeEvents: readonly string[]) => Promise<boolean>;

/**
 * A drain wait for one watch, given the promise of its end. The end is
 * subscribed to once per watch (not once per wait), so a long watch that is
 * often throttled holds no growing list of callbacks.
 */
export function drainWaiter(ended: Promise<void> | undefined): DrainWait {
  let isEnded = false;
  let wake: (() => void) | undefined;
  void ended?.then(() => {
    isEnded = true;
    wake?.();
  });
  return (stream, closeEvents) => {
    if (isEnded || stream.destroyed) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const settle = (ok: boolean) => {
        stream.off('drain', onDrain);
        for (const e of closeEvents) stream.off(e, onClose);
        wake = undefined;
        resolve(ok);
      };
      const onDrain = () => settle(true);
      const onClose = () => settle(false);
      stream.on('drain', onDrain);
      for (const e of closeEvents) stream.on(e, onClose);
      wake = () => settle(false);
    });
  };
}
