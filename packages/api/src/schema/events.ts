// The schema of events.k8s.io/v1: Event (k8s.io/api/events/v1 types.go). Its
// Go name is Event, as core/v1's; it is keyed EventsEvent here and served
// through ResourceInfo.schemaType. Its protobuf numbers are in protobuf-numbers.ts.

import { top, type TypeDef } from './definition.js';

export const EVENTS_TYPES: Record<string, TypeDef> = {
  EventsEvent: {
    group: 'events',
    name: 'Event',
    description: 'An Event reports something that happened to an object; stored once and served as core/v1 and events.k8s.io/v1 Events.',
    fields: top({
      eventTime: ['MicroTime', 'When the event was first observed. Required.', { required: true }],
      series: ['EventsEventSeries', 'Data about the series of this event; absent for a singleton.'],
      reportingController: ['string', 'The controller that emitted it, e.g. kubernetes.io/kubelet. Required for new events.'],
      reportingInstance: ['string', 'The instance of that controller, e.g. kubelet-xyzf. Required for new events.'],
      action: ['string', 'What was done or failed regarding the object. Required for new events.'],
      reason: ['string', 'Why the action was taken. Required for new events.'],
      regarding: ['ObjectReference', 'The object this event is about.'],
      related: ['ObjectReference', 'A secondary object.'],
      note: ['string', 'A human-readable description, at most 1 kB.'],
      type: ['string', 'Normal or Warning.'],
      deprecatedSource: ['EventSource', 'core/v1 source, kept for compatibility.'],
      deprecatedFirstTimestamp: ['Time', 'core/v1 firstTimestamp, kept for compatibility.'],
      deprecatedLastTimestamp: ['Time', 'core/v1 lastTimestamp, kept for compatibility.'],
      deprecatedCount: ['int32', 'core/v1 count, kept for compatibility.'],
    }),
  },
  EventsEventSeries: {
    group: 'events',
    name: 'EventSeries',
    description: 'A series of events: how often and when last an event recurred.',
    fields: {
      count: ['int32', 'How many times it occurred.', { required: true }],
      lastObservedTime: ['MicroTime', 'When it last occurred.', { required: true }],
    },
  },
};
