// An async-iterable, push-fed stream with stop(): the shape of a watch
// (watch.Interface's ResultChan + Stop) for both the gRPC adapter and fakes.

export interface WatchStream<E> extends AsyncIterable<E> {
  /** Ends the stream; iteration finishes without an error. Idempotent. */
  stop(): void;
}

export class Channel<E> implements WatchStream<E> {
  private buf: E[] = [];
  private waiting: { resolve: (r: IteratorResult<E>) => void; reject: (e: unknown) => void } | undefined;
  private ended = false;
  private failure: { err: unknown } | undefined;
  private readonly onStop: (() => void) | undefined;

  constructor(onStop?: () => void) {
    this.onStop = onStop;
  }

  /** Delivers one event (ignored after the stream ended). */
  push(e: E): void {
    if (this.ended) return;
    const w = this.waiting;
    if (w) {
      this.waiting = undefined;
      w.resolve({ value: e, done: false });
    } else this.buf.push(e);
  }

  /** Ends the stream after the buffered events. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.settle();
  }

  /** Ends the stream with an error, thrown after the buffered events. */
  fail(err: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = { err };
    this.settle();
  }

  stop(): void {
    if (!this.ended) {
      this.ended = true;
      this.buf = [];
      this.settle();
    }
    this.onStop?.();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  private settle(): void {
    const w = this.waiting;
    if (!w || this.buf.length > 0) return;
    this.waiting = undefined;
    if (this.failure) w.reject(this.failure.err);
    else w.resolve({ value: undefined, done: true });
  }

  private next(): Promise<IteratorResult<E>> {
    if (this.buf.length > 0) return Promise.resolve({ value: this.buf.shift() as E, done: false });
    if (this.ended) {
      if (this.failure) {
        const err = this.failure.err;
        this.failure = undefined;
        return Promise.reject(err);
      }
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  [Symbol.asyncIterator](): AsyncIterator<E> {
    return {
      next: () => this.next(),
      return: () => {
        this.stop();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
