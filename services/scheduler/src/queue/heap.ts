// A keyed binary heap (internal/heap): O(log n) push/pop/update/delete by key,
// as the active and backoff queues need.

export class Heap<T> {
  private readonly items: T[] = [];
  private readonly index = new Map<string, number>();

  constructor(
    private readonly keyOf: (x: T) => string,
    private readonly less: (a: T, b: T) => boolean,
  ) {}

  get size(): number {
    return this.items.length;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  get(key: string): T | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.items[i];
  }

  peek(): T | undefined {
    return this.items[0];
  }

  /** Adds, or replaces and re-sorts an item with the same key. */
  addOrUpdate(x: T): void {
    const key = this.keyOf(x);
    const i = this.index.get(key);
    if (i !== undefined) {
      this.items[i] = x;
      this.fix(i);
      return;
    }
    this.items.push(x);
    this.index.set(key, this.items.length - 1);
    this.up(this.items.length - 1);
  }

  pop(): T | undefined {
    if (this.items.length === 0) return undefined;
    const top = this.items[0]!;
    this.removeAt(0);
    return top;
  }

  delete(key: string): T | undefined {
    const i = this.index.get(key);
    if (i === undefined) return undefined;
    const x = this.items[i]!;
    this.removeAt(i);
    return x;
  }

  list(): T[] {
    return [...this.items];
  }

  private removeAt(i: number): void {
    const last = this.items.length - 1;
    this.index.delete(this.keyOf(this.items[i]!));
    if (i !== last) {
      this.items[i] = this.items[last]!;
      this.index.set(this.keyOf(this.items[i]!), i);
      this.items.pop();
      this.fix(i);
    } else this.items.pop();
  }

  private fix(i: number): void {
    if (!this.down(i)) this.up(i);
  }

  private swap(i: number, j: number): void {
    const a = this.items[i]!;
    const b = this.items[j]!;
    this.items[i] = b;
    this.items[j] = a;
    this.index.set(this.keyOf(b), i);
    this.index.set(this.keyOf(a), j);
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(this.items[i]!, this.items[p]!)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i0: number): boolean {
    let i = i0;
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      let m = l;
      const r = l + 1;
      if (r < n && this.less(this.items[r]!, this.items[l]!)) m = r;
      if (!this.less(this.items[m]!, this.items[i]!)) break;
      this.swap(i, m);
      i = m;
    }
    return i > i0;
  }
}
