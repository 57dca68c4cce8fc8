import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '@kubelab/api';
import { breakdownRule, covers } from './covers.js';

describe('breakdownRule', () => {
  it('one rule per group, resource, verb and name; urls per verb', () => {
    expect(breakdownRule({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] })).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
    ]);
    expect(breakdownRule({ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'] })).toHaveLength(2);
    expect(breakdownRule({ verbs: ['get', 'post'], nonResourceURLs: ['/healthz'] })).toEqual([
      { nonResourceURLs: ['/healthz'], verbs: ['get'] },
      { nonResourceURLs: ['/healthz'], verbs: ['post'] },
    ]);
  });
});

describe('covers (upstream validation.Covers)', () => {
  it.each<[string, PolicyRule[], PolicyRule[], PolicyRule[]]>([
    ['the same rule', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['list', 'get'], apiGroups: [''], resources: ['pods'] }], []],
    ['cluster-admin covers anything', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], [{ verbs: ['delete'], apiGroups: ['apps'], resources: ['deployments/scale'] }], []],
    ['*/scale covers a scale subresource', [{ verbs: ['get'], apiGroups: ['apps'], resources: ['*/scale'] }], [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] }], []],
    [
      'the missing pieces',
      [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'secrets'] }],
      [
        { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['list'] },
      ],
    ],
    [
      'named access does not cover all names',
      [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }],
      [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }],
      [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
    ],
    ['all names cover one', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }], []],
    ['a url prefix covers a longer path', [{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/apis/apps'] }], []],
    ['an exact url does not cover another', [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }], [{ verbs: ['get'], nonResourceURLs: ['/livez'] }], [{ nonResourceURLs: ['/livez'], verbs: ['get'] }]],
  ])('%s', (_n, owner, wanted, missing) => {
    expect(covers(owner, wanted)).toEqual({ covered: missing.length === 0, missing });
  });
});
