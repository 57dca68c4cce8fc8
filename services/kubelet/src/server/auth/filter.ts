// The kubelet API's auth filter (upstream pkg/kubelet/server
// InstallAuthFilter): authenticate, map the request to node attributes,
// authorize; every path on the port, streams included, passes through it.
// Answers in upstream's words: 401 `Unauthorized`, 403 `Forbidden (user=…,
// verb=…, resource=…, subresource=…)`, 500 `Authorization error (…)` when no
// decision could be had.

import type { IncomingMessage } from 'node:http';
import { nodeRequestAttributes } from './attributes.js';
import { authenticateRequest, type Attributes, type AuthenticatorOptions, type Authorizer, type UserInfo } from '@kubelab/component-base';

export interface KubeletAuthOptions {
  nodeName: string;
  authentication: AuthenticatorOptions;
  authorizer: Authorizer;
}

export type FilterResult = { ok: true; user: UserInfo; attributes: Attributes } | { ok: false; code: 401 | 403 | 500; message: string; why: string };

const describe = (a: Attributes) => `(user=${a.user.name}, verb=${a.verb}, resource=${a.resource}, subresource=${a.subresource})`;

export async function filterRequest(opts: KubeletAuthOptions, req: Pick<IncomingMessage, 'headers' | 'socket' | 'method' | 'url'>): Promise<FilterResult> {
  const who = await authenticateRequest(req, opts.authentication);
  if ('error' in who) return { ok: false, code: 401, message: 'Unauthorized', why: who.error };
  const path = new URL(req.url ?? '/', 'https://localhost').pathname;
  const attributes = nodeRequestAttributes(who.user, req.method ?? 'GET', path, opts.nodeName);
  let decision;
  try {
    decision = await opts.authorizer.authorize(attributes);
  } catch (e) {
    return { ok: false, code: 500, message: `Authorization error ${describe(attributes)}`, why: (e as Error).message };
  }
  if (decision.decision !== 'Allow') return { ok: false, code: 403, message: `Forbidden ${describe(attributes)}`, why: decision.reason };
  return { ok: true, user: who.user, attributes };
}
