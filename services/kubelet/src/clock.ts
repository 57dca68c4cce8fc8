// A clock the kubelet's decisions read, so tests can step time by hand
// (upstream: k8s.io/utils/clock).

export interface Clock {
  now(): number;
}

export const realClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to. */
export class FakeClock implements Clock {
  constructor(private t = Date.UTC(2025, 0, 1)) {}
  now(): number {
    return this.t;
  }
  step(ms: number): void {
    this.t += ms;
  }
  set(ms: number): void {
    this.t = ms;
  }
}

/** metav1.Time: RFC 3339 in UTC with second precision. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
