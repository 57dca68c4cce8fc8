import { describe, expect, it } from 'vitest';
import type { Event as CoreEvent } from '../../core/v1/types.js';
import { eventFromCore, eventToCore } from './conversion.js';
import type { Event } from './types.js';

const metadata = { name: 'web.1', namespace: 'default', resourceVersion: '7' };
const pod = { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1', apiVersion: 'v1' };

// Each row: the same event in both shapes (upstream's field pairs).
const rows: { name: string; core: CoreEvent; events: Event }[] = [
  {
    name: 'an events.k8s.io event with a series',
    core: {
      apiVersion: 'v1',
      kind: 'Event',
      metadata,
      involvedObject: pod,
      reason: 'Pulled',
      message: 'Pulled image',
      type: 'Normal',
      eventTime: '2026-01-02T03:04:05.000006Z',
      series: { count: 3, lastObservedTime: '2026-01-02T03:05:00.000000Z' },
      action: 'Pulling',
      related: { kind: 'Node', name: 'n1' },
      reportingComponent: 'kubelet',
      reportingInstance: 'n1',
    },
    events: {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata,
      regarding: pod,
      reason: 'Pulled',
      note: 'Pulled image',
      type: 'Normal',
      eventTime: '2026-01-02T03:04:05.000006Z',
      series: { count: 3, lastObservedTime: '2026-01-02T03:05:00.000000Z' },
      action: 'Pulling',
      related: { kind: 'Node', name: 'n1' },
      reportingController: 'kubelet',
      reportingInstance: 'n1',
    },
  },
  {
    name: 'a legacy core event: source/first/last/count become the deprecated fields, eventTime null',
    core: {
      apiVersion: 'v1',
      kind: 'Event',
      metadata,
      involvedObject: pod,
      reason: 'Scheduled',
      message: 'assigned',
      source: { component: 'default-scheduler' },
      firstTimestamp: '2026-01-02T03:04:05Z',
      lastTimestamp: '2026-01-02T03:04:06Z',
      count: 2,
      type: 'Normal',
      eventTime: null,
    },
    events: {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata,
      regarding: pod,
      reason: 'Scheduled',
      note: 'assigned',
      deprecatedSource: { component: 'default-scheduler' },
      deprecatedFirstTimestamp: '2026-01-02T03:04:05Z',
      deprecatedLastTimestamp: '2026-01-02T03:04:06Z',
      deprecatedCount: 2,
      type: 'Normal',
      eventTime: null,
    },
  },
];

describe('events.k8s.io/v1 ↔ core/v1 Event', () => {
  it.each(rows)('$name: core → events', ({ core, events }) => {
    expect(eventFromCore(core)).toEqual(events);
  });
  it.each(rows)('$name: events → core', ({ core, events }) => {
    expect(eventToCore(events)).toEqual(core);
  });
  it('gives a core event without eventTime a null one, as Go marshals a zero MicroTime', () => {
    const { eventTime, ...rest } = eventFromCore({ metadata, involvedObject: pod });
    expect(eventTime).toBeNull();
    expect(rest).toEqual({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata, regarding: pod });
  });
});
