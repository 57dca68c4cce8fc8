export {
  EventBroadcaster,
  newEventBroadcaster,
  clientsetEventSink,
  referenceOf,
  sprintf,
  type EventRecorder,
  type EventSink,
  type EventSubject,
  type EventType,
  type EventBroadcasterOptions,
  type RecorderSource,
} from './recorder.js';
export { EventCorrelator, getEventKey, getSpamKey, aggregateKeys, type CorrelatorOptions, type CorrelateResult } from './correlator.js';
