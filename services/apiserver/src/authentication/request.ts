// The authentication filter in front of every REST request (upstream:
// WithAuthentication over the union of the request authenticators): a
// verified client certificate, else a bearer token, else anonymous.
// A credential that is presented but fails is 401 — it never falls back to
// anonymous, as upstream.

import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { bearerTokenOf, ANONYMOUS, type UserInfo } from '@kubelab/api';
import { authenticateToken, type TokenAuthenticator } from './token.js';
import { anonymousAllowed, type AnonymousAuth } from './config.js';
import { userFromCertificate } from './x509.js';

export interface AuthenticationOptions {
  /** --anonymous-auth (default true) or --authentication-config's anonymous paths: requests without credentials are system:anonymous. */
  anonymous: AnonymousAuth;
  tokenAuthenticators: readonly TokenAuthenticator[];
}

export type AuthenticationResult = { user: UserInfo } | { error: string };

const users = new WeakMap<IncomingMessage, UserInfo>();

/** The user the filter authenticated for this request (tests and internal requests without the filter: undefined). */
export function requestUser(req: IncomingMessage): UserInfo | undefined {
  return users.get(req);
}

export function setRequestUser(req: IncomingMessage, user: UserInfo): void {
  users.set(req, user);
}

/** Decides who a request is (a promise only for bearer tokens); the caller answers 401 on error. */
export function authenticateRequest(req: IncomingMessage, opts: AuthenticationOptions): AuthenticationResult | Promise<AuthenticationResult> {
  const sock = req.socket as Partial<TLSSocket>;
  if (typeof sock.getPeerCertificate === 'function') {
    const peer = sock.getPeerCertificate();
    if (peer && Object.keys(peer).length > 0) {
      // A certificate the TLS layer could not verify (another CA, expired) is an error, not anonymity.
      if (!sock.authorized) return { error: `verifying certificate failed: ${String(sock.authorizationError ?? 'unknown authority')}` };
      const user = userFromCertificate(peer);
      if (!user) return { error: 'common name of client cert is empty' };
      return { user };
    }
  }
  const token = bearerTokenOf(req.headers.authorization);
  if (token !== undefined) return authenticateToken(opts.tokenAuthenticators, token).then((r) => (r.ok ? { user: r.response.user } : { error: r.error }));
  return anonymousAllowed(opts.anonymous, (req.url ?? '/').split('?')[0]!) ? { user: ANONYMOUS } : { error: 'no credentials' };
}
