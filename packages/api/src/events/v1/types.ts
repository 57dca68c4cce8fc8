// events.k8s.io/v1 (k8s.io/api/events/v1 types.go): the newer shape of an
// Event, served from the same storage as core/v1 events (see conversion.ts).

import type { EventSource, ObjectReference } from '../../core/v1/types.js';
import type { KubeList, KubeObject, MicroTime, ObjectMeta, Time } from '../../meta/types.js';

export interface Event extends KubeObject {
  apiVersion?: 'events.k8s.io/v1';
  kind?: 'Event';
  metadata: ObjectMeta;
  eventTime: MicroTime | null;
  series?: EventSeries;
  reportingController?: string;
  reportingInstance?: string;
  action?: string;
  reason?: string;
  regarding?: ObjectReference;
  related?: ObjectReference;
  note?: string;
  type?: string;
  deprecatedSource?: EventSource;
  deprecatedFirstTimestamp?: Time | null;
  deprecatedLastTimestamp?: Time | null;
  deprecatedCount?: number;
}
export type EventList = KubeList<Event>;

export interface EventSeries {
  count: number;
  lastObservedTime: MicroTime;
}
