import { describe, expect, it } from 'vitest';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from './v1/types.js';
import { customResourcesOf } from './served.js';

const crd = (versions: Array<Pick<CustomResourceDefinitionVersion, 'name' | 'served' | 'storage'>>, established = true, scope = 'Namespaced'): CustomResourceDefinition => ({
  metadata: { name: 'crontabs.stable.example.com' },
  spec: { group: 'stable.example.com', scope, names: { plural: 'crontabs', kind: 'CronTab' }, versions },
  status: { conditions: established ? [{ type: 'Established', status: 'True' }] : [] },
});

describe('customResourcesOf (what controllers walking every kind see)', () => {
  it.each<[string, CustomResourceDefinition, string[]]>([
    [
      'the storage version when served',
      crd([
        { name: 'v1beta1', served: true, storage: false },
        { name: 'v1', served: true, storage: true },
      ]),
      ['stable.example.com/v1/crontabs ns'],
    ],
    [
      'the first served one when storage is not served',
      crd([
        { name: 'v1beta1', served: true, storage: false },
        { name: 'v1', served: false, storage: true },
      ]),
      ['stable.example.com/v1beta1/crontabs ns'],
    ],
    ['nothing before Established', crd([{ name: 'v1', served: true, storage: true }], false), []],
    ['nothing when no version is served', crd([{ name: 'v1', served: false, storage: true }]), []],
    ['cluster scope', crd([{ name: 'v1', served: true, storage: true }], true, 'Cluster'), ['stable.example.com/v1/crontabs cluster']],
  ])('%s', (_name, c, want) => {
    expect(customResourcesOf([c]).map((r) => `${r.group}/${r.version}/${r.resource} ${r.namespaced ? 'ns' : 'cluster'}`)).toEqual(want);
  });
});
