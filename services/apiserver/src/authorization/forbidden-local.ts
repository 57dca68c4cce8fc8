// REPLACE WITH ./forbidden.js WHEN IT LANDS (the rbac helper owns
// forbidden.ts): a minimal stand-in for forbiddenMessage(attrs, reason), the
// text of upstream's responsewriters.forbiddenMessage plus ": <reason>".

import type { AuthorizationAttributes } from './types.js';

export function forbiddenMessage(a: AuthorizationAttributes, reason: string): string {
  const who = `User ${JSON.stringify(a.user.name)}`;
  let msg: string;
  if (!a.resourceRequest) msg = `${who} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  else {
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    const scope = a.namespace ? `in the namespace ${JSON.stringify(a.namespace)}` : 'at the cluster scope';
    msg = `${who} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.apiGroup)} ${scope}`;
  }
  return reason ? `${msg}: ${reason}` : msg;
}
