import { describe, expect, it } from 'vitest';
import { fieldErrorMessage } from '@kubelab/api';
import { invalidListOptions, listOptionsErrors, watchOptionsErrors, type ListOptionsToCheck } from './list-options.js';

const texts = (errs: ReturnType<typeof listOptionsErrors>) => errs.map((e) => `${e.field}: ${fieldErrorMessage(e)}`);

describe('list options (upstream ValidateListOptions)', () => {
  const cases: Array<[string, ListOptionsToCheck, string[]]> = [
    ['nothing', {}, []],
    ['Exact with a resourceVersion', { resourceVersion: '5', resourceVersionMatch: 'Exact' }, []],
    ['NotOlderThan with 0', { resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' }, []],
    ['a match without resourceVersion', { resourceVersionMatch: 'NotOlderThan' }, ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided']],
    ['a match with continue', { resourceVersion: '5', resourceVersionMatch: 'Exact', continue: 'x' }, ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided']],
    ['an unknown match', { resourceVersion: '5', resourceVersionMatch: 'Newest' }, ['resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""']],
    ['Exact at 0', { resourceVersion: '0', resourceVersionMatch: 'Exact' }, ['resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"']],
    ['sendInitialEvents on a list', { sendInitialEvents: true }, ['sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list']],
  ];
  it.each(cases)('%s', (_name, opts, want) => expect(texts(listOptionsErrors(opts))).toEqual(want));
});

describe('watch options (upstream validateWatchOptions, WatchList on)', () => {
  const cases: Array<[string, ListOptionsToCheck, string[]]> = [
    ['a plain watch', { resourceVersion: '7' }, []],
    ['a watch-list', { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' }, []],
    ['sendInitialEvents=false with NotOlderThan', { sendInitialEvents: false, resourceVersionMatch: 'NotOlderThan' }, []],
    ['sendInitialEvents without a match', { sendInitialEvents: true }, ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan']],
    [
      'a match without sendInitialEvents',
      { resourceVersionMatch: 'NotOlderThan' },
      ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
    ],
    [
      'Exact',
      { sendInitialEvents: true, resourceVersionMatch: 'Exact' },
      [
        'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"',
      ],
    ],
  ];
  it.each(cases)('%s', (_name, opts, want) => expect(texts(watchOptionsErrors(opts))).toEqual(want));

  it('answers 422 Invalid for ListOptions.meta.k8s.io without a name', () => {
    const e = invalidListOptions(watchOptionsErrors({ sendInitialEvents: true }));
    expect(e.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      reason: 'Invalid',
      details: {
        kind: 'ListOptions',
        group: 'meta.k8s.io',
        causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan', field: 'resourceVersionMatch' }],
      },
      code: 422,
    });
  });
});
