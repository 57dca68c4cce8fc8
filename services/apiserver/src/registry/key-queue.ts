// One read-modify-write at a time per storage key within this apiserver.
// Upstream's GuaranteedUpdate retries a lost compare-and-swap without bound;
// here concurrent writers of one object wait their turn instead of all
// reading the same revision and retrying, which costs O(N²) attempts for N
// writers and ran out of retries (409) for patches that name no
// resourceVersion. Answers are the same; conflicts with other writers
// (another apiserver) still retry. Memory: one entry per key being written.

export class KeyQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `fn` after every earlier `run` for `key` settled (fulfilled or not). */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key);
    const result = prev ? prev.then(fn) : fn();
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a write queued or running (for tests: the map empties when writers finish). */
  get size(): number {
    return this.tails.size;
  }
}
