import { describe, expect, it } from 'vitest';
import type { CronJob, Job } from '../index.js';
import { cronParseError, generateJobSelector, setDefaults, validateObject } from '../index.js';
import { fieldErrorMessage } from '../meta/status.js';

const messages = (obj: Job | CronJob, old?: Job | CronJob) => validateObject(obj, old).map((e) => `${e.field}: ${fieldErrorMessage(e)}`);

function job(patch: (j: Job) => void = () => {}): Job {
  const j: Job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'hello', namespace: 'default', uid: 'u-1' },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'hello', image: 'busybox' }] } } },
  };
  patch(j);
  setDefaults(j);
  generateJobSelector(j);
  return j;
}

function cronJob(patch: (c: CronJob) => void = () => {}): CronJob {
  const c: CronJob = {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'x', namespace: 'default' },
    spec: { schedule: '*/1 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'x', image: 'busybox' }] } } } } },
  };
  patch(c);
  setDefaults(c);
  return c;
}

describe('Job defaults and the generated selector', () => {
  it('defaults a single-run job as upstream and labels its template with name and uid', () => {
    const j = job();
    expect(j.spec).toMatchObject({ completions: 1, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false, manualSelector: false, podReplacementPolicy: 'TerminatingOrFailed' });
    expect(j.spec!.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': 'u-1' } });
    expect(j.spec!.template.metadata!.labels).toEqual({
      'batch.kubernetes.io/controller-uid': 'u-1',
      'batch.kubernetes.io/job-name': 'hello',
      'controller-uid': 'u-1',
      'job-name': 'hello',
    });
    expect(messages(j)).toEqual([]);
  });

  it('leaves completions unset when only parallelism is given', () => {
    expect(job((j) => (j.spec!.parallelism = 3)).spec).toMatchObject({ parallelism: 3 });
    expect(job((j) => (j.spec!.parallelism = 3)).spec!.completions).toBeUndefined();
  });
});

describe('Job validation', () => {
  const cases: [string, (j: Job) => void, string[]][] = [
    ['restartPolicy Always', (j) => (j.spec!.template.spec!.restartPolicy = 'Always'), ['spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"']],
    ['a negative backoffLimit', (j) => (j.spec!.backoffLimit = -1), ['spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0']],
    [
      'podFailurePolicy with OnFailure and an unknown action',
      (j) =>
        Object.assign(
          j.spec!,
          { podFailurePolicy: { rules: [{ action: 'Retry', onExitCodes: { operator: 'In', values: [1] } }] } },
          { template: { ...j.spec!.template, spec: { ...j.spec!.template.spec!, restartPolicy: 'OnFailure' } } },
        ),
      [
        'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
        'spec.podFailurePolicy.rules[0].action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
      ],
    ],
    ['Indexed without completions', (j) => Object.assign(j.spec!, { completionMode: 'Indexed', parallelism: 2 }), ['spec.completions: Required value: when completion mode is Indexed']],
    [
      'a user selector without manualSelector',
      (j) => (j.spec!.selector = { matchLabels: { app: 'x' } }),
      [
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x", "batch.kubernetes.io/controller-uid":"u-1"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated',
        'spec.template.metadata.labels: Invalid value: map[string]string{"batch.kubernetes.io/controller-uid":"u-1", "batch.kubernetes.io/job-name":"hello", "controller-uid":"u-1", "job-name":"hello"}: `selector` does not match template `labels`',
      ],
    ],
  ];
  it.each(cases)('%s', (_n, patch, want) => {
    expect(messages(job(patch))).toEqual(want);
  });

  it('a manual selector must match the template labels', () => {
    const j = job((x) => {
      x.spec!.manualSelector = true;
      x.spec!.selector = { matchLabels: { app: 'a' } };
      x.spec!.template.metadata = { labels: { app: 'b' } };
    });
    expect(messages(j)).toEqual(['spec.template.metadata.labels: Invalid value: map[string]string{"app":"b"}: `selector` does not match template `labels`']);
  });

  it('the template and selector are immutable', () => {
    const old = { ...job(), metadata: { ...job().metadata, resourceVersion: '3' } };
    const next = structuredClone(old);
    next.spec!.template.spec!.containers[0]!.image = 'nginx';
    expect(messages(next, old)).toEqual(['spec.template: Invalid value: core.PodTemplateSpec{...}: field is immutable']);
  });
});

describe('CronJob validation', () => {
  it('defaults as upstream', () => {
    expect(cronJob().spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    expect(messages(cronJob())).toEqual([]);
  });

  const cases: [string, (c: CronJob) => void, string[]][] = [
    ['a schedule of one field', (c) => (c.spec!.schedule = 'foo'), ['spec.schedule: Invalid value: "foo": expected exactly 5 fields, found 1: [foo]']],
    ['a minute out of range', (c) => (c.spec!.schedule = '61 * * * *'), ['spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61']],
    ['a TZ prefix', (c) => (c.spec!.schedule = 'TZ=UTC 0 * * * *'), ['spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead']],
    ['an unknown time zone', (c) => (c.spec!.timeZone = 'Mars/Olympus'), ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus']],
    ['Local', (c) => (c.spec!.timeZone = 'Local'), ['spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones']],
    [
      'a bad concurrencyPolicy',
      (c) => (c.spec!.concurrencyPolicy = 'Sometimes' as 'Allow'),
      ['spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"'],
    ],
    ['a name longer than 52', (c) => (c.metadata.name = 'a'.repeat(53)), [`metadata.name: Invalid value: "${'a'.repeat(53)}": must be no more than 52 characters`]],
    [
      'a selector in the job template',
      (c) => (c.spec!.jobTemplate.spec!.selector = { matchLabels: { a: 'b' } }),
      [
        'spec.jobTemplate.spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` will be auto-generated',
      ],
    ],
  ];
  it.each(cases)('%s', (_n, patch, want) => {
    expect(messages(cronJob(patch))).toEqual(want);
  });
});

describe('cron schedules (robfig ParseStandard)', () => {
  it.each([
    ['*/1 * * * *', undefined],
    ['@hourly', undefined],
    ['@every 1h30m', undefined],
    ['0 9 * * MON-FRI', undefined],
    ['0 0 1 jan,jul ?', undefined],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['a * * * *', 'failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax'],
    ['* * * * 7', 'end of range (7) above maximum (6): 7'],
    ['5-2 * * * *', 'beginning of range (5) beyond end of range (2): 5-2'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['', 'empty spec string'],
  ])('%j', (spec, want) => {
    expect(cronParseError(spec)).toBe(want);
  });
});
