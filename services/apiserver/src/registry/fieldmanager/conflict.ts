// The 409 an apply answers when it would change fields other managers own
// (upstream managedfields/internal/conflict.go NewConflictError): one cause
// per field, type FieldManagerConflict, and a message naming each manager as
// upstream prints it (`"kubectl-client-side-apply" using apps/v1`).

import { StatusError } from '@kubelab/api';
import type { Entry } from './managed.js';
import { pathString, type Path } from './path.js';

export interface Conflict {
  manager: Pick<Entry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>;
  path: Path;
}

/** How a manager prints in conflicts: the name, its subresource, and the apiVersion of an Update manager. */
export function printManager(m: Conflict['manager']): string {
  let s = JSON.stringify(m.manager);
  if (m.subresource) s += ` with subresource ${JSON.stringify(m.subresource)}`;
  if (m.operation === 'Update') s += ` using ${m.apiVersion}`;
  return s;
}

/** The Status of a failed apply; conflicts sorted by manager, then field. */
export function conflictError(conflicts: readonly Conflict[]): StatusError {
  const rows = conflicts.map((c) => ({ manager: printManager(c.manager), field: pathString(c.path) })).sort((a, b) => (a.manager === b.manager ? cmp(a.field, b.field) : cmp(a.manager, b.manager)));
  let message: string;
  if (rows.length === 1) message = `Apply failed with 1 conflict: conflict with ${rows[0]!.manager}: ${rows[0]!.field}`;
  else {
    const lines: string[] = [];
    let last: string | undefined;
    for (const r of rows) {
      if (r.manager !== last) lines.push(`conflicts with ${r.manager}:`);
      last = r.manager;
      lines.push(`- ${r.field}`);
    }
    message = `Apply failed with ${rows.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Conflict',
    details: { causes: rows.map((r) => ({ reason: 'FieldManagerConflict', message: `conflict with ${r.manager}`, field: r.field })) },
    code: 409,
  });
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
