// The sample-controller worker loop: take a key, sync it, forget its backoff
// on success, requeue rate-limited on error, always mark it done.

import type { RateLimitingQueue } from './rate-limiting.js';

export type SyncFunc<T> = (key: T) => Promise<void>;

/**
 * One step of a worker (processNextWorkItem): false once the queue has shut
 * down. onError sees every failed sync (log it; upstream HandleError).
 */
export async function processNextWorkItem<T>(queue: RateLimitingQueue<T>, sync: SyncFunc<T>, onError?: (key: T, err: unknown, requeues: number) => void): Promise<boolean> {
  const key = await queue.get();
  if (key === undefined) return false;
  try {
    await sync(key);
    queue.forget(key);
  } catch (err) {
    queue.addRateLimited(key);
    try {
      onError?.(key, err, queue.numRequeues(key));
    } catch {
      // a failing error handler must not kill the worker
    }
  } finally {
    queue.done(key);
  }
  return true;
}

/** Runs `workers` loops until the queue shuts down; resolves when all have exited. */
export async function runWorkers<T>(queue: RateLimitingQueue<T>, workers: number, sync: SyncFunc<T>, onError?: (key: T, err: unknown, requeues: number) => void): Promise<void> {
  const loop = async () => {
    while (await processNextWorkItem(queue, sync, onError)) {
      // next key
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, workers) }, loop));
}
