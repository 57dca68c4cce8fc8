// framework.CycleState: per-pod, per-cycle scratch space where a plugin keeps
// what it computed in PreFilter/PreScore for its Filter/Score calls.

export class CycleState {
  private readonly data = new Map<string, unknown>();
  /** Plugins that returned Skip at PreFilter/PreScore are not run at Filter/Score. */
  readonly skipFilterPlugins = new Set<string>();
  readonly skipScorePlugins = new Set<string>();

  write(key: string, value: unknown): void {
    this.data.set(key, value);
  }

  read<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }

  /** Copy for a preemption dry run (values are treated as immutable). */
  clone(): CycleState {
    const c = new CycleState();
    for (const [k, v] of this.data) c.data.set(k, v);
    for (const s of this.skipFilterPlugins) c.skipFilterPlugins.add(s);
    for (const s of this.skipScorePlugins) c.skipScorePlugins.add(s);
    return c;
  }
}
