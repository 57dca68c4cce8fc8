// kube-proxy's /healthz and /livez (upstream pkg/proxy/healthcheck/proxy_health.go):
// healthy while no queued change has waited longer than the health timeout
// (twice the sync period) for a successful sync. The body is upstream's JSON
// with Go's time.Time text form.

export class ProxyHealth {
  private lastUpdated = 0;
  private oldestPendingQueued = 0;

  constructor(
    private readonly healthTimeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A change was queued for sync (Sync()). */
  queued(): void {
    if (this.oldestPendingQueued === 0) this.oldestPendingQueued = this.now();
  }

  /** A sync succeeded (Updated()). */
  updated(): void {
    this.lastUpdated = this.now();
    this.oldestPendingQueued = 0;
  }

  isHealthy(): { healthy: boolean; lastUpdated: number; currentTime: number } {
    const currentTime = this.now();
    const healthy = this.oldestPendingQueued === 0 || currentTime < this.oldestPendingQueued + this.healthTimeoutMs;
    return { healthy, lastUpdated: this.lastUpdated, currentTime };
  }

  /** The /healthz answer: status code and body. */
  healthz(nodeEligible = true): { status: number; body: string } {
    const h = this.isHealthy();
    // Upstream reports "now" as lastUpdated while healthy, for compatibility.
    const last = h.healthy ? h.currentTime : h.lastUpdated;
    return {
      status: h.healthy ? 200 : 503,
      body: `{"lastUpdated": ${JSON.stringify(goTime(last))},"currentTime": ${JSON.stringify(goTime(h.currentTime))}, "nodeEligible": ${nodeEligible}}`,
    };
  }

  livez(): { status: number; body: string } {
    const h = this.isHealthy();
    const last = h.healthy ? h.currentTime : h.lastUpdated;
    return {
      status: h.healthy ? 200 : 503,
      body: `{"lastUpdated": ${JSON.stringify(goTime(last))},"currentTime": ${JSON.stringify(goTime(h.currentTime))}}`,
    };
  }
}

const processStart = Date.now() - process.uptime() * 1000;

/** Go's time.Time.String() for a UTC wall time with its monotonic reading (`m=+12.5`). */
export function goTime(ms: number): string {
  if (ms === 0) return '0001-01-01 00:00:00 +0000 UTC';
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const frac = String(d.getUTCMilliseconds() * 1_000_000)
    .padStart(9, '0')
    .replace(/0+$/, '');
  // Go prints the monotonic reading (seconds since process start) for times from time.Now().
  const mono = ms >= processStart ? ` m=+${((ms - processStart) / 1000).toFixed(9)}` : '';
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}${frac ? `.${frac}` : ''} +0000 UTC${mono}`;
}
