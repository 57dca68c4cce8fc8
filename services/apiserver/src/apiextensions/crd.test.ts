import type { CustomResourceDefinition } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { servedVersions, versionResource } from '@kubelab/api';
import { desiredStatus, namesConflict } from './crd.js';
import { validateCrd } from './validation.js';

const NOW = '2026-01-01T00:00:00Z';

const crd = (name = 'crontabs', group = 'stable.example.com', over: Partial<CustomResourceDefinition['spec']> = {}): CustomResourceDefinition => ({
  metadata: { name: `${name}.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: name, kind: 'CronTab', shortNames: ['ct'] },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
    ...over,
  },
});

describe('desiredStatus (naming and establishing controllers)', () => {
  it('accepts free names and establishes, with upstream reasons', () => {
    const s = desiredStatus(crd(), [], NOW);
    expect(s.acceptedNames).toEqual({ plural: 'crontabs', singular: 'crontab', shortNames: ['ct'], kind: 'CronTab', listKind: 'CronTabList', categories: [] });
    expect(s.conditions).toEqual([
      { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: NOW },
      { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: NOW },
    ]);
  });

  it('keeps lastTransitionTime when nothing changes', () => {
    const first = crd();
    first.status = desiredStatus(first, [], NOW);
    expect(desiredStatus(first, [], '2027-01-01T00:00:00Z')).toEqual(first.status);
  });

  it('a name another CRD of the group holds is not accepted, and the CRD not established', () => {
    const other = crd('cronjobs');
    other.status = { acceptedNames: { plural: 'cronjobs', singular: 'cronjob', kind: 'CronTab' } };
    expect(namesConflict(crd(), [other])).toEqual({ reason: 'KindConflict', message: '"CronTab" is already in use' });
    const s = desiredStatus(crd(), [other], NOW);
    expect(s.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['NamesAccepted', 'False', 'KindConflict'],
      ['Established', 'False', 'NotAccepted'],
    ]);
    expect(namesConflict(crd('crontabs', 'other.example.com'), [other])).toBeUndefined();
  });
});

describe('what a CRD serves', () => {
  it('nothing before Established; then each served version with its subresources', () => {
    const c = crd('crontabs', 'stable.example.com', {
      versions: [
        { name: 'v1', served: true, storage: true, subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } },
        { name: 'v1beta1', served: false, storage: false },
      ],
    });
    expect(servedVersions(c)).toEqual([]);
    c.status = desiredStatus(c, [], NOW);
    expect(servedVersions(c).map((v) => v.name)).toEqual(['v1']);
    expect(versionResource(c, c.spec!.versions[0]!)).toMatchObject({
      group: 'stable.example.com',
      version: 'v1',
      resource: 'crontabs',
      singular: 'crontab',
      kind: 'CronTab',
      listKind: 'CronTabList',
      namespaced: true,
      shortNames: ['ct'],
      subresources: ['status', 'scale'],
    });
  });
});

describe('validateCrd', () => {
  const fields = (c: CustomResourceDefinition) => validateCrd(c).map((e) => `${e.field}: ${e.detail ?? e.type}`);
  it.each<[string, (c: CustomResourceDefinition) => void, string[]]>([
    ['a valid CRD', () => {}, []],
    ['a name that is not plural.group', (c) => (c.metadata.name = 'x.stable.example.com'), ['metadata.name: must be spec.names.plural+"."+spec.group']],
    ['a group without a dot', (c) => ((c.spec!.group = 'stable'), (c.metadata.name = 'crontabs.stable')), ['spec.group: should be a domain with at least one dot']],
    ['a bad scope', (c) => (c.spec!.scope = 'Global'), ['spec.scope: supported values: "Cluster", "Namespaced"']],
    ['no storage version', (c) => (c.spec!.versions[0]!.storage = false), ['spec.versions: must have exactly one version marked as storage version']],
    ['no schema', (c) => delete c.spec!.versions[0]!.schema, ['spec.versions[0].schema.openAPIV3Schema: schemas are required']],
    [
      'a schema that is not structural',
      (c) => (c.spec!.versions[0]!.schema = { openAPIV3Schema: { type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } } }),
      ['spec.versions[0].schema.openAPIV3Schema.properties[spec].type: must not be empty for specified object fields'],
    ],
    [
      'a bad printer column type',
      (c) => (c.spec!.versions[0]!.additionalPrinterColumns = [{ name: 'X', type: 'time', jsonPath: '.spec.x' }]),
      ['spec.versions[0].additionalPrinterColumns[0].type: supported values: "boolean", "date", "integer", "number", "string"'],
    ],
  ])('%s', (_, mutate, want) => {
    const c = crd();
    mutate(c);
    expect(fields(c)).toEqual(want);
  });
});
