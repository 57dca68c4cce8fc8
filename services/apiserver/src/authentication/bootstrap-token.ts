// The bootstrap token authenticator (upstream
// plugin/pkg/auth/authenticator/token/bootstrap): `<id>.<secret>` bearer
// tokens backed by Secret `kube-system/bootstrap-token-<id>` of type
// `bootstrap.kubernetes.io/token`, as `kubeadm join` uses them. A token
// that does not match its Secret is not an error, only not this
// authenticator's (upstream logs why and answers "not authenticated").

import { timingSafeEqual } from 'node:crypto';
import type { Secret } from '@kubelab/api';
import {
  bootstrapTokenExpired,
  bootstrapTokenGroups,
  parseBootstrapToken,
  secretData as data,
  BOOTSTRAP_TOKEN_SECRET_PREFIX,
  BOOTSTRAP_TOKEN_SECRET_TYPE,
  BOOTSTRAP_USER_PREFIX,
} from '@kubelab/serviceaccount';
import type { TokenAuthenticator } from './token.js';

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export interface BootstrapTokenAuthenticatorOptions {
  /** Reads kube-system Secrets (from the watch cache: cacheTokenGetter). */
  getter: { secret(namespace: string, name: string): Secret | undefined };
  now?: () => number;
}

export function createBootstrapTokenAuthenticator(o: BootstrapTokenAuthenticatorOptions): TokenAuthenticator {
  const now = o.now ?? Date.now;
  return {
    async authenticateToken(token) {
      const parsed = parseBootstrapToken(token);
      if (!parsed) return undefined;
      const { id, secret: secretPart } = parsed;
      const secret = o.getter.secret('kube-system', `${BOOTSTRAP_TOKEN_SECRET_PREFIX}${id}`);
      if (!secret || secret.metadata.deletionTimestamp || secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE || !secret.data) return undefined;
      if (!same(data(secret, 'token-secret'), secretPart) || data(secret, 'token-id') !== id) return undefined;
      if (bootstrapTokenExpired(secret, now()) || data(secret, 'usage-bootstrap-authentication') !== 'true') return undefined;
      const groups = bootstrapTokenGroups(secret);
      if (!groups) return undefined;
      return { user: { name: `${BOOTSTRAP_USER_PREFIX}${id}`, groups }, audiences: [] };
    },
  };
}
