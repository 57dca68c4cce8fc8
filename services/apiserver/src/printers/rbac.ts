// Rows of RoleBindings and ClusterRoleBindings (upstream printRoleBinding /
// printClusterRoleBinding: ROLE as Kind/name, the subjects wide). Roles and
// ClusterRoles have no printer upstream: they print NAME, CREATED AT.

import { since } from './duration.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Obj, type Printer } from './table.js';

/** Users, groups and service accounts (`namespace/name`) of a binding, as upstream's SubjectsStrings. */
function subjectStrings(subjects: Obj[] | undefined): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of subjects ?? []) {
    if (s?.kind === 'User') users.push(s.name ?? '');
    else if (s?.kind === 'Group') groups.push(s.name ?? '');
    else if (s?.kind === 'ServiceAccount') sas.push(`${s.namespace ?? ''}/${s.name ?? ''}`);
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

export const roleBindingPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Role', 'string', 'The role the binding grants: a Role of its namespace or a ClusterRole.'),
    AGE_COLUMN,
    col('Users', 'string', 'Users in the roleBinding', 1),
    col('Groups', 'string', 'Groups in the roleBinding', 1),
    col('ServiceAccounts', 'string', 'ServiceAccounts in the roleBinding', 1),
  ],
  cells(b, now) {
    const ref: Obj = b.roleRef ?? {};
    return [b.metadata?.name, `${ref.kind ?? ''}/${ref.name ?? ''}`, since(b.metadata?.creationTimestamp, now), ...subjectStrings(b.subjects)];
  },
};
