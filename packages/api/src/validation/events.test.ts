import { describe, expect, it } from 'vitest';
import type { Event } from '../events/v1/types.js';
import { validateEventsEventCreate } from './events.js';

const good: Event = {
  metadata: { name: 'e1', namespace: 'default' },
  eventTime: '2026-01-02T03:04:05.000000Z',
  reportingController: 'example.com/ctl',
  reportingInstance: 'ctl-1',
  action: 'Sync',
  reason: 'Synced',
  regarding: { kind: 'Pod', namespace: 'default', name: 'web' },
  type: 'Normal',
};

describe('validateEventsEventCreate', () => {
  it.each<[string, Partial<Event>, string[]]>([
    ['a complete event', {}, []],
    ['no eventTime', { eventTime: null }, ['FieldValueRequired eventTime']],
    ['no reportingController', { reportingController: '' }, ['FieldValueRequired reportingController', 'FieldValueInvalid reportingController', 'FieldValueInvalid reportingController']],
    ['no reportingInstance, action or reason', { reportingInstance: '', action: '', reason: '' }, ['FieldValueRequired reportingInstance', 'FieldValueRequired action', 'FieldValueRequired reason']],
    ['an unknown type', { type: 'Info' }, ['FieldValueInvalid type']],
    ['a series of one', { series: { count: 1, lastObservedTime: '2026-01-02T03:04:05.000000Z' } }, ['FieldValueInvalid series.count']],
    ['deprecated fields set', { deprecatedCount: 2, deprecatedSource: { component: 'x' } }, ['FieldValueInvalid deprecatedCount', 'FieldValueInvalid deprecatedSource']],
    ['a note over 1 kB', { note: 'x'.repeat(1025) }, ['FieldValueInvalid message']],
    ['regarding in another namespace than default', { metadata: { name: 'e1', namespace: 'team' }, regarding: { kind: 'Node', name: 'n1' } }, ['FieldValueInvalid involvedObject.namespace']],
  ])('%s', (_name, change, want) => {
    expect(validateEventsEventCreate({ ...good, ...change }).map((e) => `${e.type} ${e.field}`)).toEqual(want);
  });

  it('says what is wrong in upstream words', () => {
    expect(validateEventsEventCreate({ ...good, type: 'Info' })[0]?.detail).toBe('has invalid value: Info');
    expect(validateEventsEventCreate({ ...good, deprecatedCount: 3 })[0]?.detail).toBe('needs to be unset');
  });
});
