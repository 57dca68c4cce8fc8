// The conversions between events.k8s.io/v1 Event and core/v1 Event
// (upstream: pkg/apis/events/v1 conversion.go). Events are stored once, in
// the core shape; events.k8s.io/v1 reads and writes them through these.
// Fields absent on one side stay absent on the other.

import type { Event as CoreEvent } from '../../core/v1/types.js';
import type { Event } from './types.js';

/** Copies `from[a]` to `to[b]` when present (null included: a zero Time stays null). */
function move<F extends object, T extends object>(from: F, a: keyof F, to: T, b: keyof T): void {
  if (from[a] !== undefined) (to as Record<keyof T, unknown>)[b] = from[a];
}

/** events.k8s.io/v1 → core/v1: note→message, regarding→involvedObject, reportingController→reportingComponent, deprecated* → source/firstTimestamp/lastTimestamp/count. */
export function eventToCore(e: Event): CoreEvent {
  const out = { apiVersion: 'v1', kind: 'Event', metadata: e.metadata } as CoreEvent;
  if (e.regarding !== undefined) out.involvedObject = e.regarding;
  move(e, 'reason', out, 'reason');
  move(e, 'note', out, 'message');
  move(e, 'deprecatedSource', out, 'source');
  move(e, 'deprecatedFirstTimestamp', out, 'firstTimestamp');
  move(e, 'deprecatedLastTimestamp', out, 'lastTimestamp');
  move(e, 'deprecatedCount', out, 'count');
  move(e, 'type', out, 'type');
  move(e, 'eventTime', out, 'eventTime');
  if (e.series) out.series = { count: e.series.count, lastObservedTime: e.series.lastObservedTime };
  move(e, 'action', out, 'action');
  move(e, 'related', out, 'related');
  move(e, 'reportingController', out, 'reportingComponent');
  move(e, 'reportingInstance', out, 'reportingInstance');
  return out;
}

/** core/v1 → events.k8s.io/v1; eventTime, a required MicroTime, is null when the core event has none (as Go marshals the zero value). */
export function eventFromCore(c: CoreEvent): Event {
  const out: Event = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: c.metadata, eventTime: c.eventTime ?? null };
  if (c.series) out.series = { count: c.series.count ?? 0, lastObservedTime: c.series.lastObservedTime ?? '' };
  move(c, 'reportingComponent', out, 'reportingController');
  move(c, 'reportingInstance', out, 'reportingInstance');
  move(c, 'action', out, 'action');
  move(c, 'reason', out, 'reason');
  move(c, 'involvedObject', out, 'regarding');
  move(c, 'related', out, 'related');
  move(c, 'message', out, 'note');
  move(c, 'type', out, 'type');
  move(c, 'source', out, 'deprecatedSource');
  move(c, 'firstTimestamp', out, 'deprecatedFirstTimestamp');
  move(c, 'lastTimestamp', out, 'deprecatedLastTimestamp');
  move(c, 'count', out, 'deprecatedCount');
  return out;
}
