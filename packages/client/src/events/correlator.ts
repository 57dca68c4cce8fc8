// client-go's EventCorrelator: before an Event is written it is aggregated
// (10 similar events within 10 min become one "(combined from similar
// events)" event), deduplicated (a repeat bumps count and lastTimestamp on
// the first event via a patch) and spam-filtered (25 per source+object, then
// one per 5 min).

import { formatTime, type Event } from '@kubelab/api';
import type { Clock } from '../util/clock.js';
import { BucketRateLimiter } from '../workqueue/rate-limiters.js';

export const MAX_LRU_CACHE_ENTRIES = 4096;
export const DEFAULT_AGGREGATE_MAX_EVENTS = 10;
export const DEFAULT_AGGREGATE_INTERVAL_SECONDS = 600;
export const DEFAULT_SPAM_BURST = 25;
export const DEFAULT_SPAM_QPS = 1 / 300;

export interface CorrelatorOptions {
  clock: Clock;
  lruCacheSize?: number;
  maxEvents?: number;
  maxIntervalInSeconds?: number;
  burstSize?: number;
  qps?: number;
}

export interface CorrelateResult {
  event: Event;
  /** Set when the event repeats one already written: the patch to send instead of a create. */
  patch?: { count: number; lastTimestamp: string; message: string };
  /** True when the spam filter drops it. */
  skip: boolean;
}

/** A small LRU over Map insertion order (groupcache/lru's role). */
class Lru<V> {
  private readonly m = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(k: string): V | undefined {
    const v = this.m.get(k);
    if (v !== undefined) {
      this.m.delete(k);
      this.m.set(k, v);
    }
    return v;
  }
  set(k: string, v: V): void {
    this.m.delete(k);
    this.m.set(k, v);
    if (this.m.size > this.max) this.m.delete(this.m.keys().next().value as string);
  }
}

const src = (e: Event) => [e.source?.component ?? '', e.source?.host ?? ''];
const obj = (e: Event) => {
  const o = e.involvedObject ?? {};
  return [o.kind ?? '', o.namespace ?? '', o.name ?? ''];
};

/** Identical events: same source, object (incl. fieldPath), type, reason and message. */
export function getEventKey(e: Event): string {
  const o = e.involvedObject ?? {};
  return [...src(e), ...obj(e), o.fieldPath ?? '', o.uid ?? '', o.apiVersion ?? '', e.type ?? '', e.reason ?? '', e.message ?? ''].join('');
}

export function getSpamKey(e: Event): string {
  const o = e.involvedObject ?? {};
  return [...src(e), ...obj(e), o.uid ?? '', o.apiVersion ?? ''].join('');
}

/** Similar events differ only by message (EventAggregatorByReasonFunc). */
export function aggregateKeys(e: Event): [aggregateKey: string, localKey: string] {
  const o = e.involvedObject ?? {};
  const key = [...src(e), ...obj(e), o.uid ?? '', o.apiVersion ?? '', e.type ?? '', e.reason ?? '', e.reportingComponent ?? '', e.reportingInstance ?? ''].join('');
  return [key, e.message ?? ''];
}

interface EventLog {
  count: number;
  firstTimestamp: string;
  name: string;
  resourceVersion: string;
}

export class EventCorrelator {
  private readonly clock: Clock;
  private readonly maxEvents: number;
  private readonly maxIntervalMs: number;
  private readonly burst: number;
  private readonly qps: number;
  private readonly aggregates: Lru<{ localKeys: Set<string>; last: number }>;
  private readonly logs: Lru<EventLog>;
  private readonly spam: Lru<BucketRateLimiter<string>>;
  private nanoSeq = 0;

  constructor(opts: CorrelatorOptions) {
    this.clock = opts.clock;
    const size = opts.lruCacheSize ?? MAX_LRU_CACHE_ENTRIES;
    this.maxEvents = opts.maxEvents ?? DEFAULT_AGGREGATE_MAX_EVENTS;
    this.maxIntervalMs = (opts.maxIntervalInSeconds ?? DEFAULT_AGGREGATE_INTERVAL_SECONDS) * 1000;
    this.burst = opts.burstSize ?? DEFAULT_SPAM_BURST;
    this.qps = opts.qps ?? DEFAULT_SPAM_QPS;
    this.aggregates = new Lru(size);
    this.logs = new Lru(size);
    this.spam = new Lru(size);
  }

  /** Decides what to write for a new event (EventCorrelate). */
  correlate(newEvent: Event): CorrelateResult {
    const [aggregated, key] = this.aggregate(newEvent);
    const { event, patch } = this.observe(aggregated, key);
    return { event, ...(patch ? { patch } : {}), skip: this.filter(event) };
  }

  /** Records what the server now holds (after a create or patch). */
  updateState(e: Event): void {
    this.logs.set(getEventKey(e), {
      count: e.count ?? 1,
      firstTimestamp: e.firstTimestamp ?? '',
      name: e.metadata.name ?? '',
      resourceVersion: e.metadata.resourceVersion ?? '',
    });
  }

  /** A unique `<name>.<hex unix nanos>` event name. */
  eventName(objName: string, nowMs: number): string {
    const nanos = BigInt(Math.floor(nowMs)) * 1_000_000n + BigInt(this.nanoSeq++ % 1_000_000);
    return `${objName}.${nanos.toString(16)}`;
  }

  private aggregate(e: Event): [Event, string] {
    const now = this.clock.now();
    const eventKey = getEventKey(e);
    const [aggregateKey, localKey] = aggregateKeys(e);
    let rec = this.aggregates.get(aggregateKey);
    if (!rec || now - rec.last > this.maxIntervalMs) rec = { localKeys: new Set(), last: now };
    rec.localKeys.add(localKey);
    rec.last = now;
    this.aggregates.set(aggregateKey, rec);
    if (rec.localKeys.size < this.maxEvents) return [e, eventKey];
    // keep the set bounded, then speak for the whole group under one key
    rec.localKeys.delete(rec.localKeys.values().next().value as string);
    const ts = formatTime(now);
    const combined: Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: this.eventName(e.involvedObject.name ?? '', now), namespace: e.metadata.namespace ?? '' },
      involvedObject: e.involvedObject,
      reason: e.reason ?? '',
      message: `(combined from similar events): ${e.message ?? ''}`,
      source: e.source ?? {},
      firstTimestamp: ts,
      lastTimestamp: ts,
      count: 1,
      type: e.type ?? '',
    };
    return [combined, aggregateKey];
  }

  private observe(e: Event, key: string): { event: Event; patch?: CorrelateResult['patch'] } {
    const last = this.logs.get(key);
    const event: Event = { ...e, metadata: { ...e.metadata } };
    let patch: CorrelateResult['patch'];
    if (last && last.count > 0) {
      event.metadata.name = last.name;
      event.metadata.resourceVersion = last.resourceVersion;
      event.firstTimestamp = last.firstTimestamp;
      event.count = last.count + 1;
      patch = { count: event.count, lastTimestamp: event.lastTimestamp ?? '', message: event.message ?? '' };
    }
    this.logs.set(key, {
      count: event.count ?? 1,
      firstTimestamp: event.firstTimestamp ?? '',
      name: event.metadata.name ?? '',
      resourceVersion: event.metadata.resourceVersion ?? '',
    });
    return patch ? { event, patch } : { event };
  }

  /** True when the source+object has used up its event budget (EventSourceObjectSpamFilter). */
  private filter(e: Event): boolean {
    const key = getSpamKey(e);
    let bucket = this.spam.get(key);
    if (!bucket) bucket = new BucketRateLimiter<string>(this.qps, this.burst, this.clock);
    this.spam.set(key, bucket);
    return !bucket.tryTake();
  }
}
