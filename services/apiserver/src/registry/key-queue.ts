// One read-modify-write at a time per storage key within this apiserver.
// Upstream's GuaranteedUpdate retries a lost compare-and-swap without bound;
// here concurrent writers of one object wait their turn instead of all
// reading the same revision and retrying, which costs O(N²) attempts for N
// writers and ran out of retries (409) for patches that name no
// resourceVersion. Answers are the same; conflicts with other writers
// (another apiserver) still retry. Memory: one entry per key being written.

export class KeyQueue {
  /** Per key being written: the last writer's promise and how many writers are queued or running. */
  private readonly tails = new Map<string, { last: Promise<unknown>; n: number }>();

  /** Runs `fn` after every earlier `run` for `key` settled (fulfilled or not). */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const queued = this.tails.get(key);
    // Uncontended (nearly every write): fn runs now, and one reaction counts it out.
    const result = queued ? queued.last.then(fn, fn) : fn();
    if (queued) {
      queued.last = result;
      queued.n++;
    } else this.tails.set(key, { last: result, n: 1 });
    const done = (): void => {
      const q = this.tails.get(key)!;
      if (--q.n === 0) this.tails.delete(key);
    };
    result.then(done, done);
    return result;
  }

  /** Keys with a write queued or running (for tests: the map empties when writers finish). */
  get size(): number {
    return this.tails.size;
  }
}
