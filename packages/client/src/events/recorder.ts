// client-go's record.EventBroadcaster + EventRecorder: recording an event
// never blocks and never throws; a background sink correlates it (count,
// lastTimestamp, aggregation, spam filter) and writes core/v1 Events,
// retrying while the apiserver is unreachable.

import { formatWithOptions } from 'node:util';
import { formatTime, isAlreadyExists, isNotFound, StatusError, type Event, type KubeObject, type ObjectReference } from '@kubelab/api';
import type { Clientset } from '../clientset/clientset.js';
import { isUnavailable } from '../transport/errors.js';
import { realClock, type Clock } from '../util/clock.js';
import { defaultLogger, type ClientLogger } from '../util/logger.js';
import { EventCorrelator, type CorrelateResult, type CorrelatorOptions } from './correlator.js';

export type EventType = 'Normal' | 'Warning';

/** What an event is about: an object, or a reference (with fieldPath for a container). */
export type EventSubject = KubeObject | ObjectReference;

export interface EventRecorder {
  event(obj: EventSubject, type: EventType, reason: string, message: string): void;
  /** message formatted printf-style (%s %d %v...) */
  eventf(obj: EventSubject, type: EventType, reason: string, format: string, ...args: unknown[]): void;
  annotatedEventf(obj: EventSubject, annotations: Record<string, string>, type: EventType, reason: string, format: string, ...args: unknown[]): void;
}

/** Where events go: create or patch one Event in a namespace. */
export interface EventSink {
  create(event: Event): Promise<Event>;
  patch(event: Event, patch: Record<string, unknown>): Promise<Event>;
}

/** The sink over a clientset (EventSinkImpl), using a strategic merge patch for repeats. */
export function clientsetEventSink(cs: Clientset): EventSink {
  return {
    create: (e) => cs.core.events(e.metadata.namespace ?? 'default').create(e),
    patch: (e, p) => cs.core.events(e.metadata.namespace ?? 'default').patch(e.metadata.name ?? '', 'strategic', p),
  };
}

export interface EventBroadcasterOptions {
  sink: EventSink;
  clock?: Clock;
  logger?: ClientLogger;
  /** Events waiting to be written before new ones are dropped (upstream maxQueuedEvents 1000). */
  maxQueuedEvents?: number;
  /** Events written at the same time (default 8); repeats of one event are still written in order. */
  sinkWorkers?: number;
  /** Attempts per event (upstream maxTriesPerEvent 12) and the pause between them (10 s). */
  maxTriesPerEvent?: number;
  retrySleepMs?: number;
  correlator?: Omit<CorrelatorOptions, 'clock'>;
  random?: () => number;
}

export interface RecorderSource {
  /** e.g. `default-scheduler`, `kubelet`, `deployment-controller`. */
  component: string;
  /** The node name, for node components. */
  host?: string;
}

export class EventBroadcaster {
  private readonly queue: Event[] = [];
  private readonly clock: Clock;
  private readonly log: ClientLogger;
  private readonly correlator: EventCorrelator;
  private readonly maxQueued: number;
  private readonly maxTries: number;
  private readonly retrySleepMs: number;
  private readonly random: () => number;
  private readonly workers: number;
  private running: Promise<void[]> | undefined;
  private readonly abort = new AbortController();
  private idleWaiters: Array<() => void> = [];
  private watchers: Array<(e: Event) => void> = [];
  /** Events dropped because the queue was full. */
  dropped = 0;

  constructor(private readonly opts: EventBroadcasterOptions) {
    this.clock = opts.clock ?? realClock;
    this.log = opts.logger ?? defaultLogger;
    this.correlator = new EventCorrelator({ clock: this.clock, ...opts.correlator });
    this.maxQueued = opts.maxQueuedEvents ?? 1000;
    this.workers = Math.max(1, opts.sinkWorkers ?? 8);
    this.maxTries = opts.maxTriesPerEvent ?? 12;
    this.retrySleepMs = opts.retrySleepMs ?? 10_000;
    this.random = opts.random ?? Math.random;
  }

  /** A recorder stamping events with this source. */
  newRecorder(source: RecorderSource): EventRecorder {
    const record = (obj: EventSubject, annotations: Record<string, string> | undefined, type: EventType, reason: string, message: string) => {
      try {
        if (type !== 'Normal' && type !== 'Warning') {
          this.log.error(`Unsupported event type: '${String(type)}'`);
          return;
        }
        const ref = referenceOf(obj);
        if (!ref.name) {
          this.log.error('Could not construct reference, will not report event', { reason, message });
          return;
        }
        this.enqueue(this.makeEvent(ref, annotations, type, reason, message, source));
      } catch (err) {
        this.log.error('failed to record event', { reason, err });
      }
    };
    return {
      event: (obj, type, reason, message) => record(obj, undefined, type, reason, message),
      eventf: (obj, type, reason, format, ...args) => record(obj, undefined, type, reason, sprintf(format, args)),
      annotatedEventf: (obj, annotations, type, reason, format, ...args) => record(obj, annotations, type, reason, sprintf(format, args)),
    };
  }

  /** Also passes every recorded event to fn (StartEventWatcher), e.g. for logging. */
  startEventWatcher(fn: (e: Event) => void): () => void {
    this.watchers.push(fn);
    return () => (this.watchers = this.watchers.filter((w) => w !== fn));
  }

  /** Logs each event as upstream's StartStructuredLogging does (the kubelet passes its V(3) logger). */
  startStructuredLogging(logger: Pick<ClientLogger, 'info'>): () => void {
    return this.startEventWatcher((e) =>
      logger.info('Event occurred', {
        object: e.involvedObject.namespace ? `${e.involvedObject.namespace}/${e.involvedObject.name}` : e.involvedObject.name,
        fieldPath: e.involvedObject.fieldPath,
        kind: e.involvedObject.kind,
        apiVersion: e.involvedObject.apiVersion,
        type: e.type,
        reason: e.reason,
        message: e.message,
      }),
    );
  }

  /** Starts the background writers (StartRecordingToSink). */
  startRecordingToSink(): void {
    if (this.running) return;
    this.running = Promise.all(Array.from({ length: this.workers }, () => this.loop()));
  }

  /** Resolves once every queued event has been handled (written, dropped or given up on). */
  async flush(): Promise<void> {
    if (this.queue.length === 0 && this.busy === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops the writers; events still queued are discarded (upstream Shutdown).
   * Waits for the writers only when they are idle: a write stuck on the
   * network must not hold a component's shutdown.
   */
  async shutdown(): Promise<void> {
    this.abort.abort();
    this.queue.length = 0;
    const idle = this.busy === 0;
    for (const w of this.sleepers.splice(0)) w();
    if (idle) await this.running;
    this.settleIdle();
  }

  /** A component's stop: waits up to drainMs for queued events to be written, never longer, then shuts down. */
  async drainAndShutdown(drainMs = 2000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, drainMs)));
    await Promise.race([this.flush().catch(() => undefined), timeout]);
    clearTimeout(timer);
    await this.shutdown();
  }

  private makeEvent(ref: ObjectReference, annotations: Record<string, string> | undefined, type: EventType, reason: string, message: string, source: RecorderSource): Event {
    const now = this.clock.now();
    const ts = formatTime(now);
    const namespace = ref.namespace || 'default';
    return {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: this.correlator.eventName(ref.name ?? '', now),
        namespace,
        ...(annotations ? { annotations: { ...annotations } } : {}),
      },
      involvedObject: ref,
      reason,
      message,
      source: { component: source.component, ...(source.host ? { host: source.host } : {}) },
      firstTimestamp: ts,
      lastTimestamp: ts,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: source.component,
      reportingInstance: source.host ?? '',
    };
  }

  private enqueue(e: Event): void {
    for (const w of this.watchers) {
      try {
        w(e);
      } catch (err) {
        this.log.error('event watcher threw', { err });
      }
    }
    if (this.queue.length >= this.maxQueued) {
      this.dropped++;
      this.log.warn('Dropping event because the queue is full', { reason: e.reason, object: e.involvedObject.name });
      return;
    }
    this.queue.push(e);
    this.sleepers.shift()?.();
  }

  /** Idle writers waiting for an event. */
  private readonly sleepers: Array<() => void> = [];
  /** Writers handling an event. */
  private busy = 0;
  /** The last write per event name, so a repeat (a patch) follows the write it repeats. */
  private readonly writing = new Map<string, Promise<void>>();

  /** One writer: takes events in order, correlates each at once, writes it to the sink. */
  private async loop(): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      const next = this.queue.shift();
      if (!next) {
        this.settleIdle();
        await new Promise<void>((resolve) => this.sleepers.push(resolve));
        continue;
      }
      this.busy++;
      try {
        await this.recordToSink(next, signal);
      } catch (err) {
        this.log.error('failed to write event', { err });
      } finally {
        this.busy--;
      }
    }
  }

  private settleIdle(): void {
    if (this.queue.length > 0 || this.busy > 0) return;
    const ws = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of ws) w();
  }

  /**
   * Correlates then writes one event, retrying transport failures
   * (recordToSink). Correlation runs in queue order before any await; the
   * write waits for an earlier write of the same event name.
   */
  private async recordToSink(e: Event, signal: AbortSignal): Promise<void> {
    const result = this.correlator.correlate(e);
    if (result.skip) return;
    const name = `${result.event.metadata.namespace ?? ''}/${result.event.metadata.name ?? ''}`;
    const before = this.writing.get(name);
    const write = (async () => {
      if (before) await before;
      await this.writeWithRetries(result, signal);
    })();
    const done = write.then(
      () => undefined,
      () => undefined,
    );
    this.writing.set(name, done);
    try {
      await write;
    } finally {
      if (this.writing.get(name) === done) this.writing.delete(name);
    }
  }

  private async writeWithRetries(result: CorrelateResult, signal: AbortSignal): Promise<void> {
    for (let tries = 1; !signal.aborted; tries++) {
      if (await this.recordEvent(result.event, result.patch)) return;
      if (tries >= this.maxTries) {
        this.log.error('Unable to write event (retry limit exceeded!)', { event: result.event.metadata.name });
        return;
      }
      // the first retry waits a random part of the period so recorders do not retry in lockstep
      const wait = tries === 1 ? this.random() * this.retrySleepMs : this.retrySleepMs;
      await this.clock.sleep(wait, signal);
    }
  }

  /** true when done with the event (written, or refused for good); false to retry. */
  private async recordEvent(e: Event, patch: Record<string, unknown> | undefined): Promise<boolean> {
    let written: Event | undefined;
    let err: unknown;
    const updateExisting = patch !== undefined && (e.count ?? 1) > 1;
    if (updateExisting) {
      try {
        written = await this.opts.sink.patch(e, patch);
      } catch (patchErr) {
        err = patchErr;
      }
    }
    if (!updateExisting || (err !== undefined && isNotFound(err))) {
      err = undefined;
      const fresh: Event = { ...e, metadata: { ...e.metadata } };
      delete fresh.metadata.resourceVersion;
      try {
        written = await this.opts.sink.create(fresh);
      } catch (createErr) {
        err = createErr;
      }
    }
    if (written) {
      this.correlator.updateState(written);
      return true;
    }
    if (isUnavailable(err) || !StatusError.isInstance(err) || err.code === 503 || err.code === 504) {
      this.log.warn('Unable to write event (may retry after sleeping)', { event: e.metadata.name, err });
      return false;
    }
    if (isAlreadyExists(err)) this.log.debug('Server rejected event (will not retry!)', { event: e.metadata.name, err });
    else this.log.error('Server rejected event (will not retry!)', { event: e.metadata.name, err });
    return true;
  }
}

/** The ObjectReference for an object (tools/reference.GetReference) or a given reference. */
export function referenceOf(obj: EventSubject): ObjectReference {
  if (!('metadata' in obj)) return { ...obj };
  const o = obj as KubeObject;
  const ref: ObjectReference = {
    kind: o.kind ?? '',
    namespace: o.metadata.namespace ?? '',
    name: o.metadata.name ?? '',
    uid: o.metadata.uid ?? '',
    apiVersion: o.apiVersion ?? '',
    resourceVersion: o.metadata.resourceVersion ?? '',
  };
  return ref;
}

/** Go-style formatting for eventf: %s %d %v %q as the upstream callers use them. */
export function sprintf(format: string, args: unknown[]): string {
  let i = 0;
  const out = format.replace(/%([%sdvqf])/g, (m, verb: string) => {
    if (verb === '%') return '%';
    if (i >= args.length) return `%!${verb}(MISSING)`;
    const a = args[i++];
    switch (verb) {
      case 'q':
        return JSON.stringify(String(a));
      case 'd':
        return String(typeof a === 'number' ? Math.trunc(a) : a);
      case 'v':
      case 's':
        return typeof a === 'string' ? a : a instanceof Error ? a.message : formatWithOptions({ breakLength: Infinity }, '%s', a);
      default:
        return m;
    }
  });
  return out;
}

/** A broadcaster writing through a clientset, already started. */
export function newEventBroadcaster(cs: Clientset, opts: Omit<EventBroadcasterOptions, 'sink'> = {}): EventBroadcaster {
  const b = new EventBroadcaster({ ...opts, sink: clientsetEventSink(cs) });
  b.startRecordingToSink();
  return b;
}
