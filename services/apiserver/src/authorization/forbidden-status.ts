// The 403 a refused request gets (upstream: responsewriters.Forbidden →
// apierrors.NewForbidden): `<resource>[.<group>] ["<name>"] is forbidden: <why>`
// with details {name, group, kind}, or `forbidden: <why>` for a path.

import { StatusError, type Status } from '@kubelab/api';
import { forbiddenMessage } from './forbidden.js';
import type { AuthorizationAttributes } from './types.js';

export function forbiddenStatus(a: AuthorizationAttributes, reason: string): StatusError {
  const why = forbiddenMessage(a, reason);
  const details: NonNullable<Status['details']> = {};
  let message: string;
  if (!a.resourceRequest || !a.resource) message = `forbidden: ${why}`;
  else {
    const qualified = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource;
    message = a.name ? `${qualified} ${JSON.stringify(a.name)} is forbidden: ${why}` : `${qualified} is forbidden: ${why}`;
    if (a.name) details.name = a.name;
    if (a.apiGroup) details.group = a.apiGroup;
    details.kind = a.resource;
  }
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details, code: 403 });
}
