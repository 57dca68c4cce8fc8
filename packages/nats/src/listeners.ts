// Telemetry only while someone reads it. The apiserver's write and watch
// records and the scheduler's decision records are kubelab's own view of the
// inside (upstream's nearest kin is the audit log, off until a policy asks for
// it): building and sending one costs the apiserver tens of microseconds per
// write, as much as a sixth of a create. So their publishers keep quiet until
// a reader says it listens. A reader (`kubelab trace --all-components`, the
// dashboard) announces itself on kubelab.listen.<source> when it starts and
// every HEARTBEAT_MS after; a publisher records for LISTEN_TTL_MS after the
// last announcement, and on start asks on kubelab.listen.<source>.who, so a
// restarted apiserver learns at once of the readers already running. An
// announcement is a request: the publisher's reply tells the reader its
// records flow from now on (no record is lost to the pickup).

import type { NatsConnection, Subscription } from '@nats-io/transport-node';

/** Who publishes records a reader may ask for. */
export type RecordSource = 'api' | 'sched';

const ROOT = 'kubelab.listen';

/** Where readers announce themselves to a source's publishers. */
export function listenSubject(source: RecordSource): string {
  return `${ROOT}.${source}`;
}

/** Where a starting publisher asks the readers already running to announce themselves. */
export function listenWhoSubject(source: RecordSource): string {
  return `${ROOT}.${source}.who`;
}

/** How often a reader re-announces itself. */
export const HEARTBEAT_MS = 10_000;
/** How long an announcement keeps records flowing: three heartbeats, so one lost message stops nothing. */
export const LISTEN_TTL_MS = 3 * HEARTBEAT_MS;

/** Records are wanted until `until` (ms since the epoch; 0: nobody ever announced). Pure. */
export function listening(until: number, now: number): boolean {
  return now < until;
}

/**
 * The publisher's side: `active` says whether anyone announced within the
 * TTL. One `Date.now()` per question: cheap enough to ask per write.
 */
export class ListenerGate {
  private until = 0;
  private sub?: Subscription;

  constructor(
    private readonly source: RecordSource,
    private readonly now: () => number = Date.now,
  ) {}

  get active(): boolean {
    return listening(this.until, this.now());
  }

  /** An announcement arrived (exported for tests without NATS). */
  heard(): void {
    this.until = this.now() + LISTEN_TTL_MS;
  }

  /** Subscribes on `nc`, then asks running readers to announce themselves. Never throws: without it records stay off. */
  start(nc: NatsConnection): this {
    try {
      this.sub = nc.subscribe(listenSubject(this.source), {
        callback: (err, msg) => {
          if (err) return;
          this.heard();
          // Tell the reader its records flow now; a reply it no longer waits for is dropped by NATS.
          if (msg.reply) safely(() => msg.respond());
        },
      });
      nc.publish(listenWhoSubject(this.source));
    } catch {
      // no permission or closed connection: records stay off, the component goes on
    }
    return this;
  }

  stop(): void {
    safely(() => this.sub?.unsubscribe());
  }
}

/** How long a reader waits for a publisher to confirm its announcement. */
const ANNOUNCE_TIMEOUT_MS = 2_000;

export interface Announcement {
  /**
   * Resolves once every source's publisher confirmed (true), or when none
   * answered within the wait (false: none is running yet; its `who` will
   * find this reader when it starts).
   */
  ready: Promise<boolean>;
  stop(): void;
}

/** The reader's side: announce now, answer publishers' `who`, re-announce every HEARTBEAT_MS. */
export function announceListening(nc: NatsConnection, sources: readonly RecordSource[], heartbeatMs = HEARTBEAT_MS): Announcement {
  const subs: Subscription[] = [];
  for (const source of sources) {
    safely(() => subs.push(nc.subscribe(listenWhoSubject(source), { callback: () => safely(() => nc.publish(listenSubject(source))) })));
  }
  const timer = setInterval(() => {
    for (const source of sources) safely(() => nc.publish(listenSubject(source)));
  }, heartbeatMs);
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    for (const s of subs) safely(() => s.unsubscribe());
  };
  void nc.closed().then(stop, stop);
  const ask = (source: RecordSource): Promise<boolean> =>
    // No publisher yet (no responders) or none answering: false; a publisher that starts later asks `who`.
    nc.request(listenSubject(source), undefined, { timeout: ANNOUNCE_TIMEOUT_MS }).then(
      () => true,
      () => false,
    );
  const ready = Promise.all(sources.map(ask)).then((ok) => ok.every(Boolean));
  return { ready, stop };
}

function safely(f: () => unknown): void {
  try {
    f();
  } catch {
    // telemetry plumbing never fails its host
  }
}
