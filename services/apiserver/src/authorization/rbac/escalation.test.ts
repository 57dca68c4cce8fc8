import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '@kubelab/api';
import { compactRules, compactString, confirmNoEscalation, escalationAllowed } from './escalation.js';

const jane = { name: 'jane', groups: ['devs', 'system:authenticated'] };
const rule = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule => ({ verbs, apiGroups, resources, ...(resourceNames ? { resourceNames } : {}) });

describe('compactString (upstream CompactString)', () => {
  it.each<[string, PolicyRule, string]>([
    ['a resource rule', rule(['get', 'list'], [''], ['pods']), '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}'],
    [
      'names after resources',
      rule(['patch'], ['coordination.k8s.io'], ['leases'], ['descheduler']),
      '{APIGroups:["coordination.k8s.io"], Resources:["leases"], ResourceNames:["descheduler"], Verbs:["patch"]}',
    ],
    ['a non-resource rule', { verbs: ['get'], nonResourceURLs: ['/healthz', '/metrics'] }, '{NonResourceURLs:["/healthz" "/metrics"], Verbs:["get"]}'],
  ])('%s', (_what, r, want) => expect(compactString(r)).toBe(want));
});

describe('compactRules (upstream CompactRules)', () => {
  it('merges one-group one-resource rules by verb, keeps the others', () => {
    expect(compactRules([rule(['get'], [''], ['pods']), rule(['list'], [''], ['pods'], ['a']), rule(['list'], [''], ['pods'])])).toEqual([
      rule(['list'], [''], ['pods'], ['a']),
      rule(['get', 'list'], [''], ['pods']),
    ]);
  });
});

describe('confirmNoEscalation', () => {
  const held = { rules: [rule(['get', 'list', 'watch'], [''], ['pods']), rule(['create'], ['rbac.authorization.k8s.io'], ['roles'])], errors: [] };
  it.each<[string, PolicyRule[], string | undefined]>([
    ['rules the user holds', [rule(['get', 'list'], [''], ['pods'])], undefined],
    ['rules the user holds with a name', [rule(['get'], [''], ['pods'], ['web'])], undefined],
    [
      'verbs and resources the user lacks, compacted and sorted, one a line',
      [rule(['get', 'delete', 'deletecollection'], [''], ['pods', 'secrets'])],
      'user "jane" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete" "deletecollection"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete" "deletecollection"]}',
    ],
    [
      "cluster-admin's rules",
      [
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['*'], nonResourceURLs: ['*'] },
      ],
      'user "jane" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}',
    ],
  ])('%s', (_what, rules, want) => expect(confirmNoEscalation(jane, held, rules)).toBe(want));

  it('appends the resolution errors', () => {
    expect(confirmNoEscalation(jane, { rules: [], errors: ['clusterrole.rbac.authorization.k8s.io "gone" not found'] }, [rule(['get'], [''], ['pods'])])).toBe(
      'user "jane" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}; resolution errors: [clusterrole.rbac.authorization.k8s.io "gone" not found]',
    );
  });

  it('system:masters may grant anything', () => {
    expect(escalationAllowed({ name: 'admin', groups: ['system:masters'] })).toBe(true);
    expect(escalationAllowed(jane)).toBe(false);
  });
});
