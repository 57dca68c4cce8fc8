import { describe, expect, it } from 'vitest';
import type { ControllerRevision, StatefulSet } from '../index.js';
import { setDefaults, validateObject } from '../index.js';
import { fieldErrorMessage, type FieldError } from '../meta/status.js';

function sts(mutate: (s: StatefulSet) => void = () => {}): StatefulSet {
  const s: StatefulSet = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default', resourceVersion: '1' },
    spec: {
      serviceName: 'nginx',
      selector: { matchLabels: { app: 'nginx' } },
      template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
    },
  };
  setDefaults(s);
  mutate(s);
  return s;
}

const line = (e: FieldError) => `${e.field}: ${fieldErrorMessage(e)}`;
const messages = (o: StatefulSet | ControllerRevision, old?: StatefulSet | ControllerRevision) => validateObject(o, old).map(line);

describe('StatefulSet defaults (SetDefaults_StatefulSet)', () => {
  it('fills policy, strategy with partition 0, retention Retain/Retain, replicas 1, history 10, minReadySeconds 0', () => {
    const s = sts();
    expect(s.spec).toMatchObject({
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      replicas: 1,
      revisionHistoryLimit: 10,
      minReadySeconds: 0,
    });
    expect(s.spec?.template.spec?.restartPolicy).toBe('Always');
  });

  it('claim templates print as PersistentVolumeClaims: Filesystem volume mode, Pending', () => {
    const s: StatefulSet = { ...sts(), spec: { ...sts().spec!, volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'] } }] } };
    setDefaults(s);
    expect(s.spec?.volumeClaimTemplates).toEqual([
      { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem' }, status: { phase: 'Pending' } },
    ]);
  });

  it('OnDelete gets no rollingUpdate', () => {
    const s: StatefulSet = { ...sts(), spec: { ...sts().spec!, updateStrategy: { type: 'OnDelete' } } };
    setDefaults(s);
    expect(s.spec?.updateStrategy).toEqual({ type: 'OnDelete' });
  });
});

describe('StatefulSet validation', () => {
  it.each<[string, (s: StatefulSet) => void, string[]]>([
    ['a valid set', () => {}, []],
    [
      'selector not matching the labels',
      (s) => (s.spec!.template.metadata!.labels = { app: 'other' }),
      ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`'],
    ],
    [
      'an empty selector',
      (s) => (s.spec!.selector = {}),
      ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset'],
    ],
    ['a bad pod management policy', (s) => (s.spec!.podManagementPolicy = 'Fast' as never), ["spec.podManagementPolicy: Invalid value: \"Fast\": must be 'OrderedReady' or 'Parallel'"]],
    ['a negative partition', (s) => (s.spec!.updateStrategy!.rollingUpdate!.partition = -1), ['spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0']],
    ['a negative replica count', (s) => (s.spec!.replicas = -1), ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
    [
      'a bad retention policy',
      (s) => (s.spec!.persistentVolumeClaimRetentionPolicy!.whenScaled = 'Keep' as never),
      ['spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: "Keep": supported values: "Retain", "Delete"'],
    ],
    ['restartPolicy Never', (s) => (s.spec!.template.spec!.restartPolicy = 'Never'), ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']],
    [
      'activeDeadlineSeconds',
      (s) => (s.spec!.template.spec!.activeDeadlineSeconds = 5),
      ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported'],
    ],
    ['a name that is no DNS label', (s) => (s.metadata.name = 'web.v1'), ['metadata.name: Invalid value: "web.v1": must not contain dots']],
  ])('%s', (_, mutate, want) => {
    expect(messages(sts(mutate))).toEqual(want);
  });

  it('an update may change replicas, template, updateStrategy and minReadySeconds', () => {
    const old = sts();
    const next = sts((s) => {
      s.spec!.replicas = 3;
      s.spec!.template.spec!.containers[0]!.image = 'nginx:1.28';
      s.spec!.updateStrategy = { type: 'OnDelete' };
      s.spec!.minReadySeconds = 5;
    });
    expect(messages(next, old)).toEqual([]);
  });

  it.each<[string, (s: StatefulSet) => void]>([
    ['serviceName', (s) => (s.spec!.serviceName = 'other')],
    ['podManagementPolicy', (s) => (s.spec!.podManagementPolicy = 'Parallel')],
    ['revisionHistoryLimit', (s) => (s.spec!.revisionHistoryLimit = 3)],
    ['volumeClaimTemplates', (s) => (s.spec!.volumeClaimTemplates = [{ metadata: { name: 'www' }, spec: {} }])],
  ])('an update of %s is forbidden', (_, mutate) => {
    expect(messages(sts(mutate), sts())).toEqual([
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
  });

  it('status: counts within replicas, available within ready, collisionCount never decremented', () => {
    const old = sts((s) => (s.status = { replicas: 2, collisionCount: 1 }));
    const next = sts((s) => (s.status = { replicas: 1, readyReplicas: 2, availableReplicas: 3, collisionCount: 0 }));
    expect(validateObject(next, old, 'status').map(line)).toEqual([
      'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 3: cannot be greater than status.readyReplicas',
      'status.collisionCount: Invalid value: 0: cannot be decremented',
    ]);
  });
});

describe('ControllerRevision validation', () => {
  const cr = (data: Record<string, unknown> | undefined, revision = 1): ControllerRevision => ({
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: { name: 'web-7d9c5b8f6', namespace: 'default', resourceVersion: '1' },
    ...(data ? { data } : {}),
    revision,
  });

  it('data is mandatory, revision non-negative', () => {
    expect(messages(cr(undefined, -1))).toEqual(['data: Required value: data is mandatory', 'revision: Invalid value: -1: must be greater than or equal to 0']);
  });

  it('data is immutable', () => {
    expect(messages(cr({ spec: { template: { a: 2 } } }), cr({ spec: { template: { a: 1 } } }))).toEqual([expect.stringMatching(/^data: Invalid value: .*: field is immutable$/) as never]);
  });
});
