// The secure port's filters (upstream: the generic server's handler chain as
// the scheduler and controller-manager build it, WithAuthentication then
// WithAuthorization): authenticate, map the request to non-resource
// attributes, authorize. Answers as upstream's responsewriters do: 401 and
// 403 as metav1.Status JSON (`Unauthorized`, `forbidden: User "…" cannot
// get path "/metrics"`), 500 as text when no decision could be had.

import type { IncomingMessage } from 'node:http';
import { unauthorized, type Status } from '@kubelab/api';
import { authenticateRequest } from './authenticate.js';
import { nonResourceAttributes } from './delegating.js';
import { forbiddenStatus } from './forbidden.js';
import type { SecurePortAuth, UserInfo } from './types.js';

export type SecurePortFilterResult = { ok: true; user: UserInfo } | { ok: false; code: 401 | 403 | 500; contentType: string; body: string; /** Why, for the log (never sent). */ why: string };

const asJson = (s: Status) => `${JSON.stringify(s)}\n`;

export async function filterSecurePortRequest(auth: SecurePortAuth, req: Pick<IncomingMessage, 'headers' | 'socket' | 'method' | 'url'>): Promise<SecurePortFilterResult> {
  const who = await authenticateRequest(req, auth.authentication);
  if ('error' in who) return { ok: false, code: 401, contentType: 'application/json', body: asJson(unauthorized().status), why: who.error };
  const path = new URL(req.url ?? '/', 'https://localhost').pathname;
  const attributes = nonResourceAttributes(who.user, req.method ?? 'GET', path);
  let d;
  try {
    d = await auth.authorizer.authorize(attributes);
  } catch (e) {
    // upstream responsewriters.InternalError: the request URI quoted, then the error.
    const body = `Internal Server Error: ${JSON.stringify(req.url ?? '/')}: ${(e as Error).message}\n`;
    return { ok: false, code: 500, contentType: 'text/plain; charset=utf-8', body, why: (e as Error).message };
  }
  if (d.decision !== 'Allow') return { ok: false, code: 403, contentType: 'application/json', body: asJson(forbiddenStatus(attributes, d.reason).status), why: d.reason };
  return { ok: true, user: who.user };
}
