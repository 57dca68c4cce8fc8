// Probe results per container ID (upstream prober/results.Manager): one
// cache per probe type; subscribers hear only of real changes.

export type Result = 'Unknown' | 'Success' | 'Failure';

export interface ResultUpdate {
  containerId: string;
  result: Result;
  podUid: string;
}

export class ResultsManager {
  private readonly cache = new Map<string, Result>();
  private readonly listeners = new Set<(u: ResultUpdate) => void>();

  get(containerId: string): Result | undefined {
    return this.cache.get(containerId);
  }

  /** Stores result; publishes an update only when it differs from the cached one. */
  set(containerId: string, result: Result, podUid: string): void {
    if (this.cache.get(containerId) === result) return;
    this.cache.set(containerId, result);
    for (const l of this.listeners) l({ containerId, result, podUid });
  }

  remove(containerId: string): void {
    this.cache.delete(containerId);
  }

  onUpdate(listener: (u: ResultUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
