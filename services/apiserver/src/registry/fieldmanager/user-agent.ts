// Who a write is attributed to when the request names no fieldManager
// (upstream handlers' managerOrUserAgent / prefixFromUserAgent): the User-Agent
// up to its first "/" ("kubectl/v1.33.0 (linux/amd64) …" is "kubectl",
// a component's "kube-scheduler/kubelab" is "kube-scheduler"), at most 128 bytes.

import { MAX_MANAGER_LENGTH } from './managed.js';

/** The last User-Agent seen and its manager: a connection sends one User-Agent with every write. */
let last: { userAgent: string; manager: string } = { userAgent: '', manager: '' };

export function managerName(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  const ua = userAgent ?? '';
  if (ua !== last.userAgent) last = { userAgent: ua, manager: prefixOf(ua) };
  return last.manager;
}

function prefixOf(userAgent: string): string {
  const slash = userAgent.indexOf('/');
  const prefix = slash < 0 ? userAgent : userAgent.slice(0, slash);
  return Buffer.byteLength(prefix) > MAX_MANAGER_LENGTH ? Buffer.from(prefix).subarray(0, MAX_MANAGER_LENGTH).toString() : prefix;
}
